package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

import java.io.IOException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * Iterates one term's postings in place. The current document is an index into the term's doc ID
 * array: {@link #nextDoc()} increments it, {@link #advance(int)} gallops and binary-searches.
 * Freqs, positions, offsets and payload boundaries are fixed-width values at computable addresses,
 * read only when asked for.
 */
final class NvmPostingsEnum extends ImpactsEnum {

  private final NvmPostingsReader owner;
  private final DocIdArray docs;
  private RandomAccessInput freqIn;
  private RandomAccessInput impactIn;
  private RandomAccessInput posIn;
  private RandomAccessInput payIn;
  private NvmImpacts impacts;

  private boolean indexHasFreqs;
  private boolean needsPositions;
  private boolean needsOffsets;
  private boolean needsPayloads;
  private int posRecordBytes;
  private int payloadEndOffset;

  private long freqFP;
  private long impactIndexFP;
  private long posFP;
  private long payFP;

  private int docFreq;
  private int index;
  private int doc;

  /** Doc index whose first position index is {@link #firstPosOfDoc}; -1 if none yet. */
  private int posDocIndex;

  private long firstPosOfDoc;
  private int posInDoc;
  private int startOffset;
  private int endOffset;
  private final BytesRef payload = new BytesRef();
  private boolean hasPayload;

  /** The position-level features (positions, offsets, payloads) this enum was created for. */
  private final int positionFeatures;

  NvmPostingsEnum(NvmPostingsReader owner, int flags) throws IOException {
    this.owner = owner;
    this.positionFeatures = positionFeatures(flags);
    this.docs = new DocIdArray(owner.randomAccess(NvmPostingsReader.Data.DOCS));
  }

  private static int positionFeatures(int flags) {
    return flags & (PostingsEnum.POSITIONS | PostingsEnum.OFFSETS | PostingsEnum.PAYLOADS);
  }

  /**
   * True if this enum reads the files of {@code reader} and was created for the same
   * position-level features as {@code flags}, so that a consumer that reuses enums keeps one enum
   * per kind of iteration, as with Lucene's own postings.
   */
  boolean canReuse(NvmPostingsReader reader, int flags) {
    return owner == reader && positionFeatures == positionFeatures(flags);
  }

  NvmPostingsEnum reset(FieldInfo field, NvmTermState state, int flags) throws IOException {
    IndexOptions options = field.getIndexOptions();
    indexHasFreqs = options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    needsPositions =
        options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0
            && PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS);
    needsOffsets =
        needsPositions
            && options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS) >= 0
            && PostingsEnum.featureRequested(flags, PostingsEnum.OFFSETS);
    needsPayloads =
        needsPositions
            && field.hasPayloads()
            && PostingsEnum.featureRequested(flags, PostingsEnum.PAYLOADS);

    docFreq = state.docFreq;
    docs.reset(state.docFP, docFreq);
    if (indexHasFreqs) {
      freqFP = state.freqFP;
      impactIndexFP = state.impactIndexFP;
      if (freqIn == null) {
        freqIn = owner.randomAccess(NvmPostingsReader.Data.FREQS);
      }
    }
    if (impacts != null && indexHasFreqs) {
      impacts.reset(impactIndexFP);
    }
    if (needsPositions) {
      posFP = state.posFP;
      posRecordBytes = NvmPostingsFormat.positionRecordBytes(options, field.hasPayloads());
      payloadEndOffset = posRecordBytes - Long.BYTES;
      if (posIn == null) {
        posIn = owner.randomAccess(NvmPostingsReader.Data.POSITIONS);
      }
      impactInput();
    }
    if (needsPayloads) {
      payFP = state.payFP;
      if (payIn == null) {
        payIn = owner.randomAccess(NvmPostingsReader.Data.PAYLOADS);
      }
    }
    index = -1;
    doc = -1;
    posDocIndex = -1;
    return this;
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    if (++index >= docFreq) {
      return exhaust();
    }
    posInDoc = -1;
    return doc = docs.get(index);
  }

  @Override
  public int advance(int target) throws IOException {
    if (index + 1 >= docFreq) {
      return exhaust();
    }
    index = docs.firstIndexAfter(index, doc, target);
    if (index >= docFreq) {
      return exhaust();
    }
    posInDoc = -1;
    return doc = docs.get(index);
  }

  private int exhaust() {
    index = docFreq;
    return doc = NO_MORE_DOCS;
  }

  @Override
  public long cost() {
    return docFreq;
  }

  @Override
  public int freq() throws IOException {
    return indexHasFreqs ? freqAt(index) : 1;
  }

  private int freqAt(int docIndex) throws IOException {
    return freqIn.readInt(freqFP + ((long) docIndex << 2));
  }

  @Override
  public int nextPosition() throws IOException {
    if (needsPositions == false) {
      return -1;
    }
    if (posInDoc < 0) {
      firstPosOfDoc = firstPositionIndex(index);
      posDocIndex = index;
      posInDoc = 0;
    }
    long positionIndex = firstPosOfDoc + posInDoc++;
    long record = posFP + positionIndex * posRecordBytes;
    if (needsOffsets) {
      startOffset = posIn.readInt(record + Integer.BYTES);
      endOffset = posIn.readInt(record + 2 * Integer.BYTES);
    }
    if (needsPayloads) {
      readPayload(positionIndex, record);
    }
    return posIn.readInt(record);
  }

  /**
   * Index (within the term) of the first position of the document at {@code docIndex}: the
   * running sum of freqs from the last document whose positions were read, if it is in the same
   * block, else from the block's stored BlockPosStart.
   */
  private long firstPositionIndex(int docIndex) throws IOException {
    int block = docIndex / BLOCK_SIZE;
    int from;
    long positionIndex;
    if (posDocIndex >= 0 && posDocIndex <= docIndex && posDocIndex / BLOCK_SIZE == block) {
      from = posDocIndex;
      positionIndex = firstPosOfDoc;
    } else {
      from = block * BLOCK_SIZE;
      positionIndex = blockPosStart(block);
    }
    for (int i = from; i < docIndex; i++) {
      positionIndex += freqAt(i);
    }
    return positionIndex;
  }

  private long blockPosStart(int block) throws IOException {
    if (block == 0) {
      return 0;
    }
    int numBlocks = NvmPostingsFormat.numBlocks(docFreq);
    int numGroups = NvmPostingsFormat.numGroups(numBlocks);
    return impactIn.readLong(impactIndexFP + (long) (numBlocks + numGroups + block) * Long.BYTES);
  }

  private void readPayload(long positionIndex, long record) throws IOException {
    long start =
        positionIndex == 0 ? 0 : posIn.readLong(record - posRecordBytes + payloadEndOffset);
    long end = posIn.readLong(record + payloadEndOffset);
    int length = Math.toIntExact(end - start);
    hasPayload = length > 0;
    if (hasPayload) {
      payload.bytes = ArrayUtil.growNoCopy(payload.bytes, length);
      payIn.readBytes(payFP + start, payload.bytes, 0, length);
      payload.offset = 0;
      payload.length = length;
    }
  }

  @Override
  public int startOffset() {
    return needsOffsets ? startOffset : -1;
  }

  @Override
  public int endOffset() {
    return needsOffsets ? endOffset : -1;
  }

  @Override
  public BytesRef getPayload() {
    return needsPayloads && hasPayload ? payload : null;
  }

  private RandomAccessInput impactInput() throws IOException {
    if (impactIn == null) {
      impactIn = owner.randomAccess(NvmPostingsReader.Data.IMPACTS);
    }
    return impactIn;
  }

  /** The term's impacts, created on first use: plain postings iteration never reads them. */
  private NvmImpacts impacts() throws IOException {
    if (impacts == null) {
      impacts = new NvmImpacts(docs, impactInput());
      impacts.reset(impactIndexFP);
    }
    return impacts;
  }

  @Override
  public void advanceShallow(int target) throws IOException {
    if (indexHasFreqs) {
      impacts().moveTo(target);
    }
  }

  @Override
  public Impacts getImpacts() throws IOException {
    if (indexHasFreqs == false) {
      return NO_FREQ_IMPACTS;
    }
    NvmImpacts termImpacts = impacts();
    termImpacts.moveTo(Math.max(doc, 0));
    return termImpacts;
  }

  /** Impacts of a field without frequencies: every document has freq 1 and the lowest norm. */
  private static final Impacts NO_FREQ_IMPACTS =
      new Impacts() {
        private final FreqAndNormBuffer buffer = new FreqAndNormBuffer();

        {
          buffer.add(1, 1L);
        }

        @Override
        public int numLevels() {
          return 1;
        }

        @Override
        public int getDocIdUpTo(int level) {
          return NO_MORE_DOCS;
        }

        @Override
        public FreqAndNormBuffer getImpacts(int level) {
          return buffer;
        }
      };
}
