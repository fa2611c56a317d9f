package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.ALIGNMENT;
import static org.lucenenvm.codec.NvmPostingsFormat.BLOCKS_PER_GROUP;
import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.Impact;
import org.apache.lucene.codecs.PushPostingsWriterBase;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Writes postings in the fixed-width layout of {@link NvmPostingsFormat}. Doc IDs, frequencies,
 * position records and payload bytes stream straight to their files; only the per-term block index
 * (one long per {@value NvmPostingsFormat#BLOCK_SIZE} documents) is buffered until the term ends.
 */
final class NvmPostingsWriter extends PushPostingsWriterBase {

  private static final NvmTermState EMPTY_STATE = new NvmTermState();

  private IndexOutput docOut;
  private IndexOutput freqOut;
  private IndexOutput impactOut;
  private IndexOutput posOut;
  private IndexOutput payOut;

  private final CompetitiveImpactAccumulator blockImpacts = new CompetitiveImpactAccumulator();
  private final CompetitiveImpactAccumulator groupImpacts = new CompetitiveImpactAccumulator();

  private NvmTermState lastState = EMPTY_STATE;
  private NumericDocValues norms;

  private long docStartFP;
  private long freqStartFP;
  private long posStartFP;
  private long payStartFP;

  private int docCount;
  private int lastDocID;
  private long positionCount;
  private long payloadByteCount;

  private long[] blockImpactFPs = new long[8];
  private long[] groupImpactFPs = new long[1];
  private long[] blockPosStarts = new long[8];
  private int numBlocks;
  private int numGroups;

  NvmPostingsWriter(SegmentWriteState state) throws IOException {
    boolean success = false;
    try {
      docOut = createOutput(state, NvmPostingsFormat.DOC_EXTENSION, NvmPostingsFormat.DOC_CODEC);
      if (state.fieldInfos.hasFreq()) {
        freqOut =
            createOutput(state, NvmPostingsFormat.FREQ_EXTENSION, NvmPostingsFormat.FREQ_CODEC);
        impactOut =
            createOutput(state, NvmPostingsFormat.IMPACT_EXTENSION, NvmPostingsFormat.IMPACT_CODEC);
      }
      if (state.fieldInfos.hasProx()) {
        posOut = createOutput(state, NvmPostingsFormat.POS_EXTENSION, NvmPostingsFormat.POS_CODEC);
      }
      if (state.fieldInfos.hasPayloads()) {
        payOut = createOutput(state, NvmPostingsFormat.PAY_EXTENSION, NvmPostingsFormat.PAY_CODEC);
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(docOut, freqOut, impactOut, posOut, payOut);
      }
    }
  }

  private static IndexOutput createOutput(SegmentWriteState state, String extension, String codec)
      throws IOException {
    String name =
        IndexFileNames.segmentFileName(state.segmentInfo.name, state.segmentSuffix, extension);
    IndexOutput out = state.directory.createOutput(name, state.context);
    boolean success = false;
    try {
      CodecUtil.writeIndexHeader(
          out,
          codec,
          NvmPostingsFormat.VERSION_CURRENT,
          state.segmentInfo.getId(),
          state.segmentSuffix);
      out.alignFilePointer(ALIGNMENT);
      success = true;
      return out;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(out);
      }
    }
  }

  @Override
  public void init(IndexOutput termsOut, SegmentWriteState state) throws IOException {
    CodecUtil.writeIndexHeader(
        termsOut,
        NvmPostingsFormat.TERMS_CODEC,
        NvmPostingsFormat.VERSION_CURRENT,
        state.segmentInfo.getId(),
        state.segmentSuffix);
    termsOut.writeVInt(BLOCK_SIZE);
  }

  @Override
  public NvmTermState newTermState() {
    return new NvmTermState();
  }

  @Override
  public void setField(FieldInfo fieldInfo) {
    super.setField(fieldInfo);
    lastState = EMPTY_STATE;
  }

  @Override
  public void startTerm(NumericDocValues norms) {
    this.norms = norms;
    docStartFP = docOut.getFilePointer();
    if (writeFreqs) {
      freqStartFP = freqOut.getFilePointer();
    }
    if (writePositions) {
      posStartFP = posOut.getFilePointer();
    }
    if (writePayloads) {
      payStartFP = payOut.getFilePointer();
    }
    docCount = 0;
    lastDocID = -1;
    positionCount = 0;
    payloadByteCount = 0;
    numBlocks = 0;
    numGroups = 0;
    blockImpacts.clear();
    groupImpacts.clear();
  }

  @Override
  public void startDoc(int docID, int freq) throws IOException {
    if (docID <= lastDocID) {
      throw new CorruptIndexException(
          "docs out of order (" + docID + " <= " + lastDocID + ")", docOut);
    }
    docOut.writeInt(docID);
    if (writeFreqs) {
      freqOut.writeInt(freq);
      if (writePositions && docCount % BLOCK_SIZE == 0) {
        blockPosStarts = ArrayUtil.grow(blockPosStarts, numBlocks + 1);
        blockPosStarts[numBlocks] = positionCount;
      }
      blockImpacts.add(freq, normOf(docID));
    }
    lastDocID = docID;
    docCount++;
    if (writeFreqs && docCount % BLOCK_SIZE == 0) {
      finishBlock();
    }
  }

  private long normOf(int docID) throws IOException {
    if (norms != null && norms.advanceExact(docID)) {
      return norms.longValue();
    }
    // No norms, or a document that hit an exception after its postings were buffered: such
    // documents are deleted and merged away, 1 is the norm Lucene's own writer uses for them.
    return 1L;
  }

  @Override
  public void addPosition(int position, BytesRef payload, int startOffset, int endOffset)
      throws IOException {
    if (position < 0 || position > IndexWriter.MAX_POSITION) {
      throw new CorruptIndexException(
          "position=" + position + " is out of [0, " + IndexWriter.MAX_POSITION + "]", posOut);
    }
    posOut.writeInt(position);
    if (writeOffsets) {
      posOut.writeInt(startOffset);
      posOut.writeInt(endOffset);
    }
    if (writePayloads) {
      if (payload != null && payload.length > 0) {
        payOut.writeBytes(payload.bytes, payload.offset, payload.length);
        payloadByteCount += payload.length;
      }
      posOut.writeLong(payloadByteCount);
    }
    positionCount++;
  }

  @Override
  public void finishDoc() {}

  private void finishBlock() throws IOException {
    blockImpactFPs = ArrayUtil.grow(blockImpactFPs, numBlocks + 1);
    blockImpactFPs[numBlocks++] = writeImpacts(blockImpacts);
    groupImpacts.addAll(blockImpacts);
    blockImpacts.clear();
    if (numBlocks % BLOCKS_PER_GROUP == 0) {
      finishGroup();
    }
  }

  private void finishGroup() throws IOException {
    groupImpactFPs = ArrayUtil.grow(groupImpactFPs, numGroups + 1);
    groupImpactFPs[numGroups++] = writeImpacts(groupImpacts);
    groupImpacts.clear();
  }

  /** Writes one ImpactList and returns its file pointer. */
  private long writeImpacts(CompetitiveImpactAccumulator accumulator) throws IOException {
    long fp = impactOut.getFilePointer();
    List<Impact> impacts = accumulator.getCompetitiveFreqNormPairs();
    impactOut.writeInt(impacts.size());
    for (Impact impact : impacts) {
      impactOut.writeInt(impact.freq);
      impactOut.writeLong(impact.norm);
    }
    return fp;
  }

  @Override
  public void finishTerm(BlockTermState termState) throws IOException {
    NvmTermState state = (NvmTermState) termState;
    assert state.docFreq == docCount : state.docFreq + " vs " + docCount;
    state.docFP = docStartFP;
    if (writeFreqs) {
      if (docCount % BLOCK_SIZE != 0) {
        finishBlock();
      }
      if (numBlocks % BLOCKS_PER_GROUP != 0) {
        finishGroup();
      }
      state.freqFP = freqStartFP;
      state.impactIndexFP = writeBlockIndex();
    }
    if (writePositions) {
      state.posFP = posStartFP;
    }
    if (writePayloads) {
      state.payFP = payStartFP;
    }
  }

  /** Writes the term's BlockImpactFP, GroupImpactFP and BlockPosStart arrays. */
  private long writeBlockIndex() throws IOException {
    impactOut.alignFilePointer(ALIGNMENT);
    long indexFP = impactOut.getFilePointer();
    for (int i = 0; i < numBlocks; i++) {
      impactOut.writeLong(blockImpactFPs[i]);
    }
    for (int i = 0; i < numGroups; i++) {
      impactOut.writeLong(groupImpactFPs[i]);
    }
    if (writePositions) {
      for (int i = 0; i < numBlocks; i++) {
        impactOut.writeLong(blockPosStarts[i]);
      }
    }
    return indexFP;
  }

  @Override
  public void encodeTerm(
      DataOutput out, FieldInfo fieldInfo, BlockTermState termState, boolean absolute)
      throws IOException {
    NvmTermState state = (NvmTermState) termState;
    NvmTermState previous = absolute ? EMPTY_STATE : lastState;
    out.writeVLong(state.docFP - previous.docFP);
    if (writeFreqs) {
      out.writeVLong(state.freqFP - previous.freqFP);
      out.writeVLong(state.impactIndexFP - previous.impactIndexFP);
    }
    if (writePositions) {
      out.writeVLong(state.posFP - previous.posFP);
    }
    if (writePayloads) {
      out.writeVLong(state.payFP - previous.payFP);
    }
    lastState = state;
  }

  @Override
  public void close() throws IOException {
    boolean success = false;
    try {
      for (IndexOutput out : new IndexOutput[] {docOut, freqOut, impactOut, posOut, payOut}) {
        if (out != null) {
          CodecUtil.writeFooter(out);
        }
      }
      success = true;
    } finally {
      if (success) {
        IOUtils.close(docOut, freqOut, impactOut, posOut, payOut);
      } else {
        IOUtils.closeWhileHandlingException(docOut, freqOut, impactOut, posOut, payOut);
      }
      docOut = freqOut = impactOut = posOut = payOut = null;
    }
  }
}
