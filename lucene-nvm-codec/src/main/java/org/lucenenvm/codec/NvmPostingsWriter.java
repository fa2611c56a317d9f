package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.ALIGNMENT;
import static org.lucenenvm.codec.NvmPostingsFormat.BLOCKS_PER_GROUP;
import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.PushPostingsWriterBase;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.codec.NvmPostingsFormat.DocEncoding;

/**
 * Writes postings in the block layout of {@link NvmPostingsFormat}. Doc IDs and freqs are buffered
 * one block of {@value NvmPostingsFormat#BLOCK_SIZE} at a time (a block is written when the next
 * one starts, or when the term ends, so that the writer knows whether the term has more than one
 * block and may use a bit set or deltas), its freqs right after its doc IDs, and, for a field of
 * PositionBlocks, its positions (buffered with the block, written at the width of its largest);
 * position records and payload bytes of other fields stream straight to their files; the term's
 * SkipData (impact lines, LastDoc, BlockDocPointer, BlockPosPointer, BlockFreqFP) is buffered until
 * the term ends.
 */
final class NvmPostingsWriter extends PushPostingsWriterBase {

  private IndexOutput docOut;
  private IndexOutput skipOut;
  private IndexOutput posOut;
  private IndexOutput payOut;

  private final CompetitiveImpactAccumulator blockImpacts = new CompetitiveImpactAccumulator();
  private final CompetitiveImpactAccumulator groupImpacts = new CompetitiveImpactAccumulator();
  private final int[] blockDocs = new int[BLOCK_SIZE];
  private final int[] blockFreqs = new int[BLOCK_SIZE];
  private final FixedBitSet blockBits = new FixedBitSet(NvmPostingsFormat.MAX_BIT_SET_SPAN);

  private NvmTermState lastState = NvmTermState.ZEROS;
  private NumericDocValues norms;

  private long posStartFP;
  private long payStartFP;

  private int docCount;
  private int blockDocCount;
  private int lastDocID;
  private long positionCount;
  private long payloadByteCount;
  private long blockPosStart;

  /**
   * Whether the field's positions are PositionBlocks (positions only, no offsets or payloads): a
   * block's positions are buffered in {@link #blockPositions} and written with the block.
   */
  private boolean narrowPositions;

  private int[] blockPositions = new int[BLOCK_SIZE];
  private int blockPositionCount;

  /** Per written block of the current term: SkipData, written when the term ends. */
  private int numBlocks;

  private int numGroups;
  private int[] lastDocs = new int[8];
  private long[] blockDocPointers = new long[8];
  /**
   * Per block of the current term with SkipData, the start of its FreqBlock in {@link
   * #termFreqBlocks}; its BlockFreqFP is that plus where the term's FreqBlocks land in the doc file.
   */
  private long[] blockFreqOffsets = new long[8];

  /** The FreqBlocks of the current term with SkipData, written after all its DocBlocks. */
  private final ByteBuffersDataOutput termFreqBlocks = ByteBuffersDataOutput.newResettableInstance();
  /** Per block: BlockPosStart, or BlockPosFP for a field of {@link #narrowPositions}. */
  private long[] blockPosPointers = new long[8];
  private byte[] blockImpactLines = new byte[8 * ImpactLine.BYTES];
  private byte[] groupImpactLines = new byte[ImpactLine.BYTES];

  NvmPostingsWriter(SegmentWriteState state) throws IOException {
    boolean success = false;
    try {
      docOut = createOutput(state, NvmPostingsFormat.DOC_EXTENSION, NvmPostingsFormat.DOC_CODEC);
      skipOut = createOutput(state, NvmPostingsFormat.SKIP_EXTENSION, NvmPostingsFormat.SKIP_CODEC);
      if (state.fieldInfos.hasProx()) {
        posOut = createOutput(state, NvmPostingsFormat.POS_EXTENSION, NvmPostingsFormat.POS_CODEC);
      }
      if (state.fieldInfos.hasPayloads()) {
        payOut = createOutput(state, NvmPostingsFormat.PAY_EXTENSION, NvmPostingsFormat.PAY_CODEC);
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(docOut, skipOut, posOut, payOut);
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
    narrowPositions = NvmPostingsFormat.hasPositionBlocks(fieldInfo);
    lastState = NvmTermState.ZEROS;
  }

  @Override
  public void startTerm(NumericDocValues norms) {
    this.norms = norms;
    if (writePositions) {
      posStartFP = posOut.getFilePointer();
    }
    if (writePayloads) {
      payStartFP = payOut.getFilePointer();
    }
    docCount = 0;
    blockDocCount = 0;
    lastDocID = -1;
    positionCount = 0;
    blockPositionCount = 0;
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
    if (blockDocCount == BLOCK_SIZE) {
      writeBlock(true);
    }
    if (blockDocCount == 0) {
      blockPosStart = positionCount;
    }
    blockDocs[blockDocCount] = docID;
    blockFreqs[blockDocCount] = freq;
    blockDocCount++;
    if (writeFreqs) {
      blockImpacts.add(freq, normOf(docID));
    }
    lastDocID = docID;
    docCount++;
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
    positionCount++;
    if (narrowPositions) {
      blockPositions = ArrayUtil.grow(blockPositions, blockPositionCount + 1);
      blockPositions[blockPositionCount++] = position;
      return;
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
  }

  @Override
  public void finishDoc() {}

  /** Writes the buffered block's doc IDs and freqs and records its SkipData entry. */
  private void writeBlock(boolean termHasSkipData) throws IOException {
    int previousLastDoc = numBlocks == 0 ? -1 : lastDocs[numBlocks - 1];
    int lastDoc = blockDocs[blockDocCount - 1];
    int span = lastDoc - previousLastDoc;
    lastDocs = ArrayUtil.grow(lastDocs, numBlocks + 1);
    blockDocPointers = ArrayUtil.grow(blockDocPointers, numBlocks + 1);
    blockFreqOffsets = ArrayUtil.grow(blockFreqOffsets, numBlocks + 1);
    blockPosPointers = ArrayUtil.grow(blockPosPointers, numBlocks + 1);
    lastDocs[numBlocks] = lastDoc;
    if (narrowPositions) {
      blockPosPointers[numBlocks] = posOut.getFilePointer();
      writePositionBlock();
    } else {
      blockPosPointers[numBlocks] = blockPosStart;
    }
    DocEncoding encoding =
        NvmPostingsFormat.docEncoding(
            blockDocCount,
            termHasSkipData,
            span,
            maxDelta(previousLastDoc) <= NvmPostingsFormat.MAX_DELTA8);
    if (encoding == DocEncoding.BIT_SET) {
      docOut.alignFilePointer(ALIGNMENT);
    }
    blockDocPointers[numBlocks] =
        NvmPostingsFormat.blockDocPointer(docOut.getFilePointer(), encoding);
    switch (encoding) {
      case BIT_SET -> writeBitSet(previousLastDoc + 1, span);
      case DELTA8, DELTA16 -> writeDeltas(previousLastDoc, encoding == DocEncoding.DELTA8);
      case INT32 -> {
        for (int i = 0; i < blockDocCount; i++) {
          docOut.writeInt(blockDocs[i]);
        }
      }
    }
    if (writeFreqs) {
      if (termHasSkipData) {
        blockFreqOffsets[numBlocks] = termFreqBlocks.size();
        writeFreqBlock(termFreqBlocks);
      } else {
        writeFreqBlock(docOut);
      }
      blockImpactLines = ArrayUtil.grow(blockImpactLines, (numBlocks + 1) * ImpactLine.BYTES);
      writeImpactLine(blockImpacts, blockImpactLines, numBlocks);
      groupImpacts.addAll(blockImpacts);
      blockImpacts.clear();
    }
    numBlocks++;
    blockDocCount = 0;
    if (writeFreqs && numBlocks % BLOCKS_PER_GROUP == 0) {
      finishGroup();
    }
  }

  /**
   * Writes the differences between the buffered doc IDs and the one before each (previousLastDoc
   * first), one byte each if {@code byteDeltas}, else two.
   */
  private void writeDeltas(int previousLastDoc, boolean byteDeltas) throws IOException {
    int previous = previousLastDoc;
    for (int i = 0; i < blockDocCount; i++) {
      int delta = blockDocs[i] - previous;
      if (byteDeltas) {
        docOut.writeByte((byte) delta);
      } else {
        docOut.writeShort((short) delta);
      }
      previous = blockDocs[i];
    }
  }

  /** Largest difference between a buffered doc ID and the one before it (previousLastDoc first). */
  private int maxDelta(int previousLastDoc) {
    int max = 0;
    int previous = previousLastDoc;
    for (int i = 0; i < blockDocCount; i++) {
      max = Math.max(max, blockDocs[i] - previous);
      previous = blockDocs[i];
    }
    return max;
  }

  /**
   * Writes the FreqBlock of the buffered block to {@code out}: its width, then every freq, as
   * FreqNibbles if they all fit in 4 bits.
   */
  private void writeFreqBlock(DataOutput out) throws IOException {
    int maxFreq = 0;
    for (int i = 0; i < blockDocCount; i++) {
      maxFreq = Math.max(maxFreq, blockFreqs[i]);
    }
    int width = NvmPostingsFormat.freqWidth(maxFreq);
    out.writeByte((byte) width);
    if (width == NvmPostingsFormat.FREQ_NIBBLES) {
      int half = NvmPostingsFormat.nibbleBytes(blockDocCount);
      for (int j = 0; j < half; j++) {
        int high = j + half < blockDocCount ? blockFreqs[j + half] : 0;
        out.writeByte((byte) (blockFreqs[j] | high << 4));
      }
      return;
    }
    for (int i = 0; i < blockDocCount; i++) {
      switch (width) {
        case Byte.BYTES -> out.writeByte((byte) blockFreqs[i]);
        case Short.BYTES -> out.writeShort((short) blockFreqs[i]);
        default -> out.writeInt(blockFreqs[i]);
      }
    }
  }

  /** Writes the buffered block's PositionBlock: its width, then every position at that width. */
  private void writePositionBlock() throws IOException {
    int maxPosition = 0;
    for (int i = 0; i < blockPositionCount; i++) {
      maxPosition = Math.max(maxPosition, blockPositions[i]);
    }
    int width = NvmPostingsFormat.valueWidth(maxPosition);
    posOut.writeByte((byte) width);
    for (int i = 0; i < blockPositionCount; i++) {
      switch (width) {
        case Byte.BYTES -> posOut.writeByte((byte) blockPositions[i]);
        case Short.BYTES -> posOut.writeShort((short) blockPositions[i]);
        default -> posOut.writeInt(blockPositions[i]);
      }
    }
    blockPositionCount = 0;
  }

  private void writeBitSet(int base, int span) throws IOException {
    int numWords = FixedBitSet.bits2words(span);
    blockBits.clear();
    for (int i = 0; i < blockDocCount; i++) {
      blockBits.set(blockDocs[i] - base);
    }
    long[] words = blockBits.getBits();
    for (int i = 0; i < numWords; i++) {
      docOut.writeLong(words[i]);
    }
  }

  private void finishGroup() {
    groupImpactLines = ArrayUtil.grow(groupImpactLines, (numGroups + 1) * ImpactLine.BYTES);
    writeImpactLine(groupImpacts, groupImpactLines, numGroups++);
    groupImpacts.clear();
  }

  private static void writeImpactLine(
      CompetitiveImpactAccumulator accumulator, byte[] lines, int index) {
    Arrays.fill(lines, index * ImpactLine.BYTES, (index + 1) * ImpactLine.BYTES, (byte) 0);
    ImpactLine.encode(accumulator.getCompetitiveFreqNormPairs(), lines, index * ImpactLine.BYTES);
  }

  @Override
  public void finishTerm(BlockTermState termState) throws IOException {
    NvmTermState state = (NvmTermState) termState;
    assert state.docFreq == docCount : state.docFreq + " vs " + docCount;
    boolean hasSkipData = numBlocks > 0;
    writeBlock(hasSkipData);
    state.docFP = NvmPostingsFormat.blockDocFP(blockDocPointers[0]);
    state.posFP = posStartFP;
    state.payFP = payStartFP;
    if (hasSkipData) {
      long freqBlocksFP = docOut.getFilePointer();
      if (writeFreqs) {
        termFreqBlocks.copyTo(docOut);
        termFreqBlocks.reset();
        if (numBlocks % BLOCKS_PER_GROUP != 0) {
          finishGroup();
        }
      }
      skipOut.alignFilePointer(NvmPostingsFormat.SKIP_ALIGNMENT);
      state.skipFP = skipOut.getFilePointer();
      writeSkipData(
          TermSkipLayout.of(state.skipFP, docCount, writeFreqs, writePositions), freqBlocksFP);
    } else {
      state.skipFP = 0;
    }
  }

  /**
   * Writes the term's SkipData in the order of {@link TermSkipLayout}; {@code freqBlocksFP} is where
   * the term's FreqBlocks start in the doc file.
   */
  private void writeSkipData(TermSkipLayout layout, long freqBlocksFP) throws IOException {
    assert layout.numBlocks() == numBlocks;
    if (writeFreqs) {
      skipOut.writeBytes(blockImpactLines, 0, numBlocks * ImpactLine.BYTES);
      skipOut.writeBytes(groupImpactLines, 0, numGroups * ImpactLine.BYTES);
    }
    assert skipOut.getFilePointer() == layout.lastDocsFP();
    for (int i = 0; i < numBlocks; i++) {
      skipOut.writeInt(lastDocs[i]);
    }
    skipOut.alignFilePointer(Long.BYTES);
    assert skipOut.getFilePointer() == layout.blockDocPointersFP();
    for (int i = 0; i < numBlocks; i++) {
      skipOut.writeLong(blockDocPointers[i]);
    }
    if (writePositions) {
      for (int i = 0; i < numBlocks; i++) {
        skipOut.writeLong(blockPosPointers[i]);
      }
    }
    if (writeFreqs) {
      for (int i = 0; i < numBlocks; i++) {
        skipOut.writeLong(freqBlocksFP + blockFreqOffsets[i]);
      }
    }
    assert skipOut.getFilePointer() == layout.endFP();
  }

  @Override
  public void encodeTerm(
      DataOutput out, FieldInfo fieldInfo, BlockTermState termState, boolean absolute)
      throws IOException {
    NvmTermState state = (NvmTermState) termState;
    NvmTermState previous = absolute ? NvmTermState.ZEROS : lastState;
    state.writePointers(out, previous, writePositions, writePayloads);
    lastState = state;
  }

  @Override
  public void close() throws IOException {
    boolean success = false;
    try {
      for (IndexOutput out : new IndexOutput[] {docOut, skipOut, posOut, payOut}) {
        if (out != null) {
          CodecUtil.writeFooter(out);
        }
      }
      success = true;
    } finally {
      if (success) {
        IOUtils.close(docOut, skipOut, posOut, payOut);
      } else {
        IOUtils.closeWhileHandlingException(docOut, skipOut, posOut, payOut);
      }
      docOut = skipOut = posOut = payOut = null;
    }
  }
}
