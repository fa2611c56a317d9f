package org.lucenenvm.codec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.VectorUtil;

/**
 * Iterates one term's postings block by block: {@link DocBlockReader} copies a block's doc IDs
 * into an int array, and iteration works on it; freqs are read as {@link DocBlockReader#freq}
 * and {@link DocBlockReader#freqsInto} decide. {@link
 * #advance(int)} finds the block in the skip table and the doc in the block with {@link
 * VectorUtil#findNextGEQ}; {@link #nextPostings} hands out the rest of the current block per call,
 * {@link #intoBitSet} ORs whole bit-set blocks. Positions, offsets and payload boundaries are
 * fixed-width records at computed addresses, read in place one record per {@link #nextPosition()}:
 * a phrase or span query stops reading a document's positions as soon as it knows whether they
 * match, so nothing is copied ahead of it.
 */
final class NvmPostingsEnum extends ImpactsEnum {

  private final RunFiles owner;
  private final DocBlockReader blocks;
  private final int[] docs;
  private final PostingsData skipData;
  private PostingsData posData;
  private PostingsData payData;
  private final NvmImpacts impacts;

  private boolean indexHasFreqs;
  private boolean needsPositions;
  private boolean needsOffsets;
  private boolean needsPayloads;
  /** Whether the field's positions are PositionBlocks, else PositionRecords. */
  private boolean positionBlocks;

  /**
   * Bytes from one position to the next: the PositionRecord width, or the current PositionBlock's
   * width.
   */
  private int posRecordBytes;

  /** Bytes of a position value: 4 in PositionRecords, the width of the current PositionBlock. */
  private int positionWidth;

  /** File pointer of the first position of the block {@link #posBlock}. */
  private long blockPositionsFP;

  /** Index (within the term) of the first position of the block {@link #posBlock}. */
  private long blockPosStart;

  /**
   * File pointer of the current document's next position record; -1 until its first {@link
   * #nextPosition()}, which finds its first record.
   */
  private long nextRecordFP;

  /** Start of the next position's payload in the term's payload bytes. */
  private long payloadStart;
  private long posFP;
  private long payFP;

  private int docFreq;

  /** Index of the current doc in {@link #docs}. */
  private int upto;

  private int blockCount;
  private int blockLastDoc;

  /** Whether the current block is a bit set: then {@link #docs} is unused, see {@link #bits}. */
  private boolean bitSetBlock;

  private FixedBitSet bits;
  private int bitBase;
  private int doc;

  /** Block whose positions {@link #blockPositionsFP} and {@link #blockPosStart} locate, or -1. */
  private int posBlock;

  private int startOffset;
  private int endOffset;
  private final BytesRef payload = new BytesRef();
  private boolean hasPayload;

  /** The position-level features (positions, offsets, payloads) this enum was created for. */
  private final int positionFeatures;

  NvmPostingsEnum(RunFiles owner, int flags) throws IOException {
    this.owner = owner;
    this.positionFeatures = positionFeatures(flags);
    this.skipData = owner.data(RunFiles.Data.SKIP);
    this.blocks = new DocBlockReader(owner.data(RunFiles.Data.DOCS), skipData);
    this.docs = blocks.docs;
    this.impacts = new NvmImpacts(blocks, skipData);
  }

  private static int positionFeatures(int flags) {
    return flags & (PostingsEnum.POSITIONS | PostingsEnum.OFFSETS | PostingsEnum.PAYLOADS);
  }

  /**
   * True if this enum reads the files of {@code run} and was created for the same
   * position-level features as {@code flags}, so that a consumer that reuses enums keeps one enum
   * per kind of iteration, as with Lucene's own postings.
   */
  boolean canReuse(RunFiles run, int flags) {
    return owner == run && positionFeatures == positionFeatures(flags);
  }

  NvmPostingsEnum reset(FieldInfo field, NvmTermState state, int flags) throws IOException {
    IndexOptions options = field.getIndexOptions();
    indexHasFreqs = options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    boolean indexHasPositions = options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    needsPositions =
        indexHasPositions && PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS);
    needsOffsets =
        needsPositions
            && options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS) >= 0
            && PostingsEnum.featureRequested(flags, PostingsEnum.OFFSETS);
    needsPayloads =
        needsPositions
            && field.hasPayloads()
            && PostingsEnum.featureRequested(flags, PostingsEnum.PAYLOADS);

    docFreq = state.docFreq;
    blocks.reset(state, indexHasFreqs, indexHasPositions);
    impacts.reset();
    if (needsPositions) {
      posFP = state.posFP;
      positionBlocks = NvmPostingsFormat.hasPositionBlocks(field);
      posRecordBytes = NvmPostingsFormat.positionRecordBytes(options, field.hasPayloads());
      positionWidth = Integer.BYTES;
      if (posData == null) {
        posData = owner.data(RunFiles.Data.POSITIONS);
      }
    }
    if (needsPayloads) {
      payFP = state.payFP;
      if (payData == null) {
        payData = owner.data(RunFiles.Data.PAYLOADS);
      }
    }
    upto = -1;
    blockCount = 0;
    blockLastDoc = -1;
    doc = -1;
    posBlock = -1;
    return this;
  }

  @Override
  public int docID() {
    return doc;
  }

  /**
   * Makes {@code block} current and keeps the impacts at or after it: they describe the docs from
   * the larger of the current doc and the last {@link #advanceShallow} target on, so {@link
   * #getImpacts()} need not look at the current doc.
   */
  private void loadBlock(int block) throws IOException {
    blocks.load(block);
    impacts.moveToBlock(block);
    blockCount = blocks.count();
    blockLastDoc = blocks.lastDocOfBlock();
    bitSetBlock = blocks.isBitSet();
    if (bitSetBlock) {
      bits = blocks.bitSet();
      bitBase = blocks.bitSetBase();
    }
  }

  @Override
  public int nextDoc() throws IOException {
    if (++upto == blockCount) {
      int next = blocks.block() + 1;
      if (next >= blocks.numBlocks()) {
        return exhaust();
      }
      loadBlock(next);
      upto = 0;
    }
    nextRecordFP = -1;
    if (bitSetBlock) {
      return doc = bitBase + bits.nextSetBit(upto == 0 ? 0 : doc - bitBase + 1);
    }
    return doc = docs[upto];
  }

  @Override
  public int advance(int target) throws IOException {
    int from = upto + 1;
    if (target > blockLastDoc) {
      int block = blocks.blockAtOrAfter(target, blocks.block() + 1);
      if (block >= blocks.numBlocks()) {
        return exhaust();
      }
      loadBlock(block);
      from = 0;
    }
    nextRecordFP = -1;
    if (bitSetBlock) {
      // The block holds a doc >= target, and target > the previous block's last doc = base - 1.
      int bit = bits.nextSetBit(target - bitBase);
      upto = blocks.indexOfBit(bit);
      return doc = bitBase + bit;
    }
    upto = VectorUtil.findNextGEQ(docs, target, from, blockCount);
    if (upto >= blockCount) {
      return exhaust();
    }
    return doc = docs[upto];
  }

  private int exhaust() {
    upto = blockCount;
    blockLastDoc = NO_MORE_DOCS;
    return doc = NO_MORE_DOCS;
  }

  /** Index in the block of the first doc {@code >= upTo}, from {@link #upto}. */
  private int blockEnd(int upTo) {
    if (blockLastDoc < upTo) {
      return blockCount;
    }
    if (bitSetBlock) {
      return blocks.indexOfBit(upTo - bitBase);
    }
    return VectorUtil.findNextGEQ(docs, upTo, upto, blockCount);
  }

  /**
   * Moves onto the first doc at index {@code end} of the block or later, where {@code endDoc} is
   * a doc ID at or after the doc at {@code end - 1} and before the doc at {@code end}.
   */
  private void skipTo(int end, int endDoc) throws IOException {
    upto = end - 1;
    doc = endDoc;
    nextDoc();
  }

  /** Returns the docs of the current block from the current one to {@code upTo} (exclusive). */
  @Override
  public void nextPostings(int upTo, DocAndFloatFeatureBuffer buffer) throws IOException {
    buffer.size = 0;
    if (doc >= upTo) {
      return;
    }
    int end = blockEnd(upTo);
    int size = end - upto;
    buffer.growNoCopy(NvmPostingsFormat.BLOCK_SIZE + 1);
    if (bitSetBlock) {
      int toBit = (int) Math.min(upTo, blockLastDoc + 1L) - bitBase;
      bits.intoArray(doc - bitBase, toBit, bitBase, buffer.docs);
    } else {
      System.arraycopy(docs, upto, buffer.docs, 0, size);
    }
    if (indexHasFreqs) {
      blocks.freqsInto(upto, size, buffer.features);
    } else {
      Arrays.fill(buffer.features, 0, size, 1f);
    }
    buffer.size = size;
    skipTo(end, buffer.docs[size - 1]);
  }

  @Override
  public void intoBitSet(int upTo, FixedBitSet bitSet, int offset) throws IOException {
    while (doc < upTo) {
      int end = blockEnd(upTo);
      if (bitSetBlock) {
        int toDoc = (int) Math.min(upTo, blockLastDoc + 1L);
        FixedBitSet.orRange(bits, doc - bitBase, bitSet, doc - offset, toDoc - doc);
        skipTo(end, toDoc - 1);
      } else {
        for (int i = upto; i < end; i++) {
          bitSet.set(docs[i] - offset);
        }
        skipTo(end, docs[end - 1]);
      }
    }
  }

  /**
   * In a bit-set block the run ends at the next clear bit. In a packed block, doc IDs are strictly
   * increasing, so {@code docs[i] - i} is non-decreasing and the current run is where it stays
   * equal to its value at the current doc: a binary search. A run that reaches the block's last
   * doc continues over the following blocks that are runs, found in the skip table.
   */
  @Override
  public int docIDRunEnd() throws IOException {
    if (bitSetBlock) {
      int runEnd = bitBase + blocks.nextClearBit(doc - bitBase);
      return runEnd == blockLastDoc + 1 ? blocks.runEndAcrossBlocks(runEnd) : runEnd;
    }
    int key = doc - upto;
    int low = upto;
    int high = blockCount - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (docs[mid] - mid == key) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    int runEnd = docs[low] + 1;
    return low == blockCount - 1 ? blocks.runEndAcrossBlocks(runEnd) : runEnd;
  }

  @Override
  public long cost() {
    return docFreq;
  }

  @Override
  public int freq() throws IOException {
    return indexHasFreqs ? blocks.freq(upto) : 1;
  }

  @Override
  public int nextPosition() throws IOException {
    if (needsPositions == false) {
      return -1;
    }
    if (nextRecordFP < 0) {
      startDocPositions();
    }
    long record = nextRecordFP;
    nextRecordFP += posRecordBytes;
    if (needsOffsets) {
      startOffset = posData.readInt(record + Integer.BYTES);
      endOffset = posData.readInt(record + 2 * Integer.BYTES);
    }
    if (needsPayloads) {
      readPayload(record + posRecordBytes - Long.BYTES);
    }
    return readPosition(record);
  }

  private int readPosition(long fp) throws IOException {
    return switch (positionWidth) {
      case Byte.BYTES -> Byte.toUnsignedInt(posData.readByte(fp));
      case Short.BYTES -> Short.toUnsignedInt(posData.readShort(fp));
      default -> posData.readInt(fp);
    };
  }

  /**
   * Points {@link #nextRecordFP} at the current document's first position record and, for
   * payloads, reads the end of the previous record's payload (the start of this one's).
   */
  private void startDocPositions() throws IOException {
    if (posBlock != blocks.block()) {
      enterPositionBlock();
    }
    long firstPosOfDoc = blocks.firstPositionOf(upto);
    nextRecordFP = blockPositionsFP + firstPosOfDoc * posRecordBytes;
    if (needsPayloads) {
      boolean first = blockPosStart + firstPosOfDoc == 0;
      payloadStart = first ? 0 : posData.readLong(nextRecordFP - Long.BYTES);
    }
  }

  /**
   * Finds where the current block's positions start from its BlockPosPointer (PosFP and
   * BlockPosStart 0 for a term without SkipData): a PositionBlock's width and first position, or
   * the block's first PositionRecord.
   */
  private void enterPositionBlock() throws IOException {
    posBlock = blocks.block();
    boolean hasSkipData = blocks.layout().hasSkipData();
    if (positionBlocks) {
      long blockFP = hasSkipData ? blocks.blockPosPointer() : posFP;
      int width = posData.readByte(blockFP);
      if (width != Byte.BYTES && width != Short.BYTES && width != Integer.BYTES) {
        throw new CorruptIndexException(
            "position width " + width + " at " + blockFP + " is not 1, 2 or 4", posData.toString());
      }
      positionWidth = posRecordBytes = width;
      blockPositionsFP = blockFP + Byte.BYTES;
      blockPosStart = 0;
    } else {
      blockPosStart = hasSkipData ? blocks.blockPosPointer() : 0;
      blockPositionsFP = posFP + blockPosStart * posRecordBytes;
    }
  }

  /** Reads the payload that ends at the PayloadEnd stored at {@code payloadEndFP}. */
  private void readPayload(long payloadEndFP) throws IOException {
    long end = posData.readLong(payloadEndFP);
    int length = Math.toIntExact(end - payloadStart);
    hasPayload = length > 0;
    if (hasPayload) {
      payload.bytes = ArrayUtil.growNoCopy(payload.bytes, length);
      payData.readBytes(payFP + payloadStart, payload.bytes, length);
      payload.offset = 0;
      payload.length = length;
    }
    payloadStart = end;
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

  /** Plain postings iteration never reads impact lines: only {@link Impacts#getImpacts} does. */
  @Override
  public void advanceShallow(int target) {
    if (indexHasFreqs) {
      impacts.moveTo(target);
    }
  }

  @Override
  public Impacts getImpacts() {
    return indexHasFreqs ? impacts : NO_FREQ_IMPACTS;
  }

  /**
   * Impacts of a field without frequencies: every document has freq 1 and the lowest norm (also
   * the impacts of a linked term past its last run, where no document is left).
   */
  static final Impacts NO_FREQ_IMPACTS =
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
