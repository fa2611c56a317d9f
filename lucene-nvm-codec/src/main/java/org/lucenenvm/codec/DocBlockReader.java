package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BitUtil;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.VectorUtil;
import org.lucenenvm.codec.NvmPostingsFormat.DocEncoding;

/**
 * One term's doc blocks and skip table. Loading a block of Int32 doc IDs copies them into {@link
 * #docs} with one bulk copy; a block of 8- or 16-bit deltas is copied with one bulk copy and turned
 * into doc IDs by a prefix sum; loading a bit-set block copies its words into {@link #bitSet},
 * which is not decoded: the enum walks the bits and {@link #indexOfBit} maps a bit to the doc's
 * index in the block. Freqs (4 bits or 1, 2 or 4 bytes wide, after all the term's doc blocks) are
 * read in place by {@link #freq}, copied straight into a scorer's batch by {@link #freqsInto}, and
 * copied and widened into an array ({@link #freqs()}) for a reader that asks for most of a block's
 * freqs and for positions, whose running sums over the block {@link #firstPositionOf} keeps. The
 * block of a target doc ID is found in the term's LastDoc table with {@link
 * VectorUtil#findNextGEQ}; that table is copied to the heap when the term is reset (4 bytes per
 * {@value NvmPostingsFormat#BLOCK_SIZE} documents) and shared by the enum and its impacts.
 */
final class DocBlockReader {
  /** {@link #freq} calls in a block that always read in place. */
  private static final int MIN_IN_PLACE_FREQ_READS = 3;

  /**
   * After {@link #MIN_IN_PLACE_FREQ_READS} calls, a block's freqs are copied once the reader has
   * asked for at least one in this many of the block's docs so far (iterating every doc with its
   * freq); a sparser reader (a conjunction's other clause) keeps reading in place.
   */
  private static final int COPY_FREQS_DENSITY = 4;

  /** The low 4 bits of each of a long's 8 bytes. */
  private static final long LOW_NIBBLES = 0x0F0F0F0F0F0F0F0FL;

  /** Doc IDs of the current packed block, in {@code [0, count())}. */
  final int[] docs = new int[BLOCK_SIZE + 1];

  private final int[] freqs = new int[BLOCK_SIZE];

  /**
   * Sum of the freqs of the current block's docs before doc {@code i}, at {@code i}: the index of
   * its first position among the block's; a long, as 256 freqs may add up past
   * Integer.MAX_VALUE. Valid if {@link #positionStartsReady}.
   */
  private final long[] positionStarts = new long[BLOCK_SIZE];

  private boolean positionStartsReady;

  private final short[] shorts = new short[BLOCK_SIZE];
  private final byte[] bytes = new byte[BLOCK_SIZE];

  /** FreqNibbles of the current block, valid if {@link #nibblesCopied}. */
  private final byte[] nibbles = new byte[BLOCK_SIZE / 2];

  private boolean nibblesCopied;

  /**
   * The current block's FreqNibbles one freq per byte, in doc order, valid if {@link
   * #nibblesExpanded}: masked out eight at a time from little-endian longs, so that a batch is
   * one widening loop from bytes to floats, which compiles to SIMD instructions (masking each
   * nibble straight into a float does not). Past {@code count} it holds leftovers.
   */
  private final byte[] nibbleFreqs = new byte[BLOCK_SIZE];

  private boolean nibblesExpanded;

  private final long[] bitSetWords =
      new long[FixedBitSet.bits2words(NvmPostingsFormat.MAX_BIT_SET_SPAN)];
  private final FixedBitSet bitSet =
      new FixedBitSet(bitSetWords, NvmPostingsFormat.MAX_BIT_SET_SPAN);

  /**
   * Number of set bits in the bit-set block's words before word {@code i}; counted on the first
   * {@link #indexOfBit} of a block (iterating a whole block never needs it).
   */
  private final int[] bitCountBefore = new int[bitSetWords.length];

  private boolean bitCountsReady;
  private final PostingsData docData;
  private final PostingsData skipData;
  private int[] lastDocs = new int[0];

  private TermSkipLayout layout;
  private long docFP;
  private int docFreq;

  /** Start of the current block's FreqBlock in the doc file, or {@link #UNKNOWN_FREQ_FP}. */
  private long freqFP;

  /** {@link #freqFP} of a block whose BlockFreqFP was not read yet. */
  private static final long UNKNOWN_FREQ_FP = -1;

  private int block;
  private int count;
  private boolean freqsLoaded;

  /** FreqWidth of the current block, {@link #UNREAD_FREQ_WIDTH} until read. */
  private int freqWidth;

  private static final int UNREAD_FREQ_WIDTH = -1;

  private int inPlaceFreqReads;
  private boolean isBitSet;
  private int bitSetBase;
  private int bitSetSpan;

  /** Words of {@link #bitSetWords} that may be non-zero; the words after them are all zero. */
  private int bitSetWordsInUse = FixedBitSet.bits2words(NvmPostingsFormat.MAX_BIT_SET_SPAN);
  private int lastDocOfBlock;

  DocBlockReader(PostingsData docData, PostingsData skipData) {
    this.docData = docData;
    this.skipData = skipData;
  }

  /** Starts over on a term of a field that indexes freqs or not, positions or not. */
  void reset(NvmTermState state, boolean hasFreqs, boolean hasPositions) throws IOException {
    docFP = state.docFP;
    docFreq = state.docFreq;
    layout = TermSkipLayout.of(state.skipFP, docFreq, hasFreqs, hasPositions);
    if (layout.hasSkipData()) {
      int numBlocks = layout.numBlocks();
      lastDocs = ArrayUtil.growNoCopy(lastDocs, numBlocks);
      skipData.readInts(layout.lastDocsFP(), lastDocs, numBlocks);
    }
    block = -1;
    count = 0;
  }

  TermSkipLayout layout() {
    return layout;
  }

  int numBlocks() {
    return layout.numBlocks();
  }

  /** Index of the current block, -1 before the first {@link #load}. */
  int block() {
    return block;
  }

  /** Number of docs in the current block. */
  int count() {
    return count;
  }

  /** Last doc ID of {@code block}; only for terms with SkipData. */
  int lastDoc(int block) {
    return lastDocs[block];
  }

  /**
   * The first block at or after {@code from} whose last doc ID is {@code >= target}, or {@link
   * #numBlocks()} if there is none. Without SkipData the only block is the answer for {@code from
   * == 0} whatever the target.
   */
  int blockAtOrAfter(int target, int from) {
    int numBlocks = layout.numBlocks();
    if (from >= numBlocks || layout.hasSkipData() == false || lastDocs[from] >= target) {
      return from;
    }
    return VectorUtil.findNextGEQ(lastDocs, target, from + 1, numBlocks);
  }

  /**
   * Makes {@code block} current: afterwards its doc IDs are in {@link #docs}, or in {@link
   * #bitSet} if {@link #isBitSet()}.
   */
  void load(int block) throws IOException {
    this.block = block;
    count = Math.min(BLOCK_SIZE, docFreq - block * BLOCK_SIZE);
    freqsLoaded = false;
    positionStartsReady = false;
    nibblesCopied = false;
    nibblesExpanded = false;
    freqWidth = UNREAD_FREQ_WIDTH;
    inPlaceFreqReads = 0;
    if (layout.hasSkipData()) {
      loadListed(block);
      freqFP = UNKNOWN_FREQ_FP;
    } else {
      isBitSet = false;
      docData.readInts(docFP, docs, count);
      lastDocOfBlock = docs[count - 1];
      freqFP = docFP + (long) count * Integer.BYTES;
    }
  }

  /**
   * {@link #load} for a block of a term with SkipData: where it is and how it is stored come from
   * its BlockDocPointer and the LastDoc table. (A method of its own keeps both small enough for
   * the JIT to inline into the enum's hot loops.)
   */
  private void loadListed(int block) throws IOException {
    long pointer = skipData.readLong(layout.blockDocPointersFP() + (long) block * Long.BYTES);
    long fp = NvmPostingsFormat.blockDocFP(pointer);
    boolean byteDeltas = NvmPostingsFormat.hasByteDeltas(pointer);
    int previousLastDoc = block == 0 ? -1 : lastDocs[block - 1];
    int span = lastDocs[block] - previousLastDoc;
    lastDocOfBlock = lastDocs[block];
    DocEncoding encoding = NvmPostingsFormat.docEncoding(count, true, span, byteDeltas);
    if (byteDeltas && encoding != DocEncoding.DELTA8) {
      throw misflagged(fp, encoding, span);
    }
    isBitSet = encoding == DocEncoding.BIT_SET;
    switch (encoding) {
      case BIT_SET -> loadBitSet(fp, previousLastDoc + 1, span);
      case DELTA8 -> loadByteDeltas(fp, previousLastDoc);
      case DELTA16 -> loadDeltas(fp, previousLastDoc);
      case INT32 -> docData.readInts(fp, docs, count);
    }
  }

  /** The error for a block at {@code fp} flagged as 8-bit deltas that its span says is not. */
  private CorruptIndexException misflagged(long fp, DocEncoding encoding, int span) {
    return new CorruptIndexException(
        "block "
            + block
            + " at "
            + fp
            + " is flagged as 8-bit deltas but is a "
            + encoding
            + " block ("
            + count
            + " docs spanning "
            + span
            + " doc IDs)",
        skipData.toString());
  }

  private void loadBitSet(long fp, int base, int span) throws IOException {
    bitSetBase = base;
    bitSetSpan = span;
    int numWords = FixedBitSet.bits2words(span);
    docData.readLongs(fp, bitSetWords, numWords);
    if (bitSetWordsInUse > numWords) {
      Arrays.fill(bitSetWords, numWords, bitSetWordsInUse, 0L);
    }
    bitSetWordsInUse = numWords;
    bitCountsReady = false;
  }

  private void countBits() {
    int before = 0;
    for (int i = 0, numWords = bitSetWordsInUse; i < numWords; i++) {
      bitCountBefore[i] = before;
      before += Long.bitCount(bitSetWords[i]);
    }
    bitCountsReady = true;
  }

  /** Copies the block's 16-bit deltas and sums them up from {@code previousLastDoc}. */
  private void loadDeltas(long fp, int previousLastDoc) throws IOException {
    docData.readShorts(fp, shorts, count);
    int doc = previousLastDoc;
    for (int i = 0; i < count; i++) {
      doc += Short.toUnsignedInt(shorts[i]);
      docs[i] = doc;
    }
  }

  /** Copies the block's 8-bit deltas and sums them up from {@code previousLastDoc}. */
  private void loadByteDeltas(long fp, int previousLastDoc) throws IOException {
    docData.readBytes(fp, bytes, count);
    int doc = previousLastDoc;
    for (int i = 0; i < count; i++) {
      doc += Byte.toUnsignedInt(bytes[i]);
      docs[i] = doc;
    }
  }

  /** Last doc ID of the current block. */
  int lastDocOfBlock() {
    return lastDocOfBlock;
  }

  /**
   * Index in the current bit-set block of the first doc at or after bit {@code bit} ({@link
   * #count()} if {@code bit} is at or past the block's span).
   */
  int indexOfBit(int bit) {
    if (bit >= bitSetSpan) {
      return count;
    }
    if (bitCountsReady == false) {
      countBits();
    }
    int word = bit >>> 6;
    return bitCountBefore[word] + Long.bitCount(bitSetWords[word] & ((1L << bit) - 1));
  }

  /**
   * First clear bit at or after {@code bit} in the current bit-set block, or its span if the
   * block's bits are all set from {@code bit} on.
   */
  int nextClearBit(int bit) {
    int word = bit >>> 6;
    long clear = ~bitSetWords[word] & (-1L << bit);
    int numWords = FixedBitSet.bits2words(bitSetSpan);
    while (clear == 0 && ++word < numWords) {
      clear = ~bitSetWords[word];
    }
    if (clear == 0) {
      return bitSetSpan;
    }
    return Math.min(bitSetSpan, (word << 6) + Long.numberOfTrailingZeros(clear));
  }

  /**
   * Freq of the doc at {@code index} of the current block. A conjunction's other clauses and
   * MAXSCORE's non-essential clauses score a few docs per block, for which a copy of the block's
   * freqs would cost more than reading each in place; a reader that takes most docs' freqs
   * (iteration, a phrase) is better served by one bulk copy. So the first {@value
   * #MIN_IN_PLACE_FREQ_READS} calls in a block read in place, and later ones too unless the reader
   * has asked for at least one in {@value #COPY_FREQS_DENSITY} of the block's docs up to {@code
   * index}, which copies the block's freqs.
   */
  int freq(int index) throws IOException {
    if (freqsLoaded
        || (++inPlaceFreqReads > MIN_IN_PLACE_FREQ_READS
            && inPlaceFreqReads * COPY_FREQS_DENSITY > index)) {
      return freqs()[index];
    }
    int width = freqWidth();
    if (width == NvmPostingsFormat.FREQ_NIBBLES) {
      int half = NvmPostingsFormat.nibbleBytes(count);
      boolean low = index < half;
      int pair = docData.readByte(freqFP() + Byte.BYTES + (low ? index : index - half));
      return low ? pair & 0xF : (pair >>> 4) & 0xF;
    }
    long fp = freqFP() + Byte.BYTES + (long) index * width;
    return switch (width) {
      case Byte.BYTES -> Byte.toUnsignedInt(docData.readByte(fp));
      case Short.BYTES -> Short.toUnsignedInt(docData.readShort(fp));
      default -> docData.readInt(fp);
    };
  }

  /**
   * Start of the current block's FreqBlock: after the Int32Block of a single-block term, else
   * read from the term's BlockFreqFP table on first use, so that a block whose freqs are never
   * asked for (a conjunction's clause that only advances) costs no read of its address.
   */
  private long freqFP() throws IOException {
    if (freqFP == UNKNOWN_FREQ_FP) {
      freqFP = skipData.readLong(layout.blockFreqFPsFP() + (long) block * Long.BYTES);
    }
    return freqFP;
  }

  /** The current block's FreqWidth (0, 1, 2 or 4), read and checked on first use. */
  private int freqWidth() throws IOException {
    if (freqWidth == UNREAD_FREQ_WIDTH) {
      int width = docData.readByte(freqFP());
      if (width != NvmPostingsFormat.FREQ_NIBBLES
          && width != Byte.BYTES
          && width != Short.BYTES
          && width != Integer.BYTES) {
        throw new CorruptIndexException(
            "freq width " + width + " at " + freqFP + " is not 0, 1, 2 or 4", docData.toString());
      }
      freqWidth = width;
    }
    return freqWidth;
  }

  /**
   * Index, among the current block's positions, of the first position of the doc at {@code index}:
   * the freqs before it, summed for the whole block on the first call, so that a phrase that reads
   * the positions of many of the block's docs pays one pass over its freqs.
   */
  long firstPositionOf(int index) throws IOException {
    if (positionStartsReady == false) {
      int[] blockFreqs = freqs();
      long[] starts = positionStarts;
      long sum = 0;
      for (int i = 0; i < count; i++) {
        starts[i] = sum;
        sum += blockFreqs[i];
      }
      positionStartsReady = true;
    }
    return positionStarts[index];
  }

  /** Freqs of the current block, copied and widened on first use; only for fields with freqs. */
  private int[] freqs() throws IOException {
    if (freqsLoaded == false) {
      loadFreqs();
      freqsLoaded = true;
    }
    return freqs;
  }

  /**
   * Writes the freqs of the docs at {@code [from, from + count)} of the current block, as floats,
   * into {@code dst[0, count)}: from the copied freqs if the block has them, else straight from the
   * FreqBlock with one bulk copy and one widening loop (a scorer that takes the block in batches
   * needs them only once). Nibbles are copied and expanded to a byte per freq for the whole block
   * on the first batch (its two halves share bytes) and widened per batch.
   */
  void freqsInto(int from, int count, float[] dst) throws IOException {
    if (freqsLoaded) {
      for (int i = 0; i < count; i++) {
        dst[i] = freqs[from + i];
      }
      return;
    }
    int width = freqWidth();
    long values = freqFP() + Byte.BYTES + (long) from * width;
    switch (width) {
      case NvmPostingsFormat.FREQ_NIBBLES -> nibblesInto(from, count, dst);
      case Byte.BYTES -> {
        docData.readBytes(values, bytes, count);
        for (int i = 0; i < count; i++) {
          dst[i] = Byte.toUnsignedInt(bytes[i]);
        }
      }
      case Short.BYTES -> {
        docData.readShorts(values, shorts, count);
        for (int i = 0; i < count; i++) {
          dst[i] = Short.toUnsignedInt(shorts[i]);
        }
      }
      default -> {
        // freqs[] serves as scratch here: freqsLoaded stays false, so freqs() copies them again.
        docData.readInts(values, freqs, count);
        for (int i = 0; i < count; i++) {
          dst[i] = freqs[i];
        }
      }
    }
  }

  /** {@link #freqsInto} for a block of FreqNibbles. */
  private void nibblesInto(int from, int count, float[] dst) throws IOException {
    byte[] expanded = expandNibbles();
    for (int i = 0; i < count; i++) {
      dst[i] = expanded[from + i];
    }
  }

  /**
   * Expands the current block's FreqNibbles into {@link #nibbleFreqs} once and returns it: the low
   * nibbles of bytes {@code [0, half)} are the freqs of docs {@code [0, half)}, their high nibbles
   * those of docs {@code [half, count)}. Whole longs are read and written, so up to 7 bytes past
   * {@code half} of {@link #nibbles} are read (left over from an earlier block, never used) and
   * the low pass writes up to 7 bytes past {@code half}, which the high pass then overwrites;
   * {@code half <= BLOCK_SIZE / 2} keeps both within the arrays.
   */
  private byte[] expandNibbles() throws IOException {
    byte[] expanded = nibbleFreqs;
    if (nibblesExpanded == false) {
      int half = copyNibbles();
      byte[] pairs = nibbles;
      for (int j = 0; j < half; j += Long.BYTES) {
        long word = (long) BitUtil.VH_LE_LONG.get(pairs, j);
        BitUtil.VH_LE_LONG.set(expanded, j, word & LOW_NIBBLES);
      }
      for (int j = 0; j < half; j += Long.BYTES) {
        long word = (long) BitUtil.VH_LE_LONG.get(pairs, j);
        BitUtil.VH_LE_LONG.set(expanded, half + j, (word >>> 4) & LOW_NIBBLES);
      }
      nibblesExpanded = true;
    }
    return expanded;
  }

  /**
   * Copies the current block's FreqNibbles into {@link #nibbles} once, and returns how many bytes
   * they are: ceil(count / 2), the index of the first doc whose freq is a high nibble.
   */
  private int copyNibbles() throws IOException {
    int half = NvmPostingsFormat.nibbleBytes(count);
    if (nibblesCopied == false) {
      docData.readBytes(freqFP() + Byte.BYTES, nibbles, half);
      nibblesCopied = true;
    }
    return half;
  }

  private void loadFreqs() throws IOException {
    int width = freqWidth();
    long values = freqFP() + Byte.BYTES;
    switch (width) {
      case NvmPostingsFormat.FREQ_NIBBLES -> {
        int half = copyNibbles();
        for (int j = 0; j < half; j++) {
          freqs[j] = nibbles[j] & 0xF;
        }
        for (int j = 0, highCount = count - half; j < highCount; j++) {
          freqs[half + j] = (nibbles[j] >>> 4) & 0xF;
        }
      }
      case Byte.BYTES -> {
        docData.readBytes(values, bytes, count);
        for (int i = 0; i < count; i++) {
          freqs[i] = Byte.toUnsignedInt(bytes[i]);
        }
      }
      case Short.BYTES -> {
        docData.readShorts(values, shorts, count);
        for (int i = 0; i < count; i++) {
          freqs[i] = Short.toUnsignedInt(shorts[i]);
        }
      }
      default -> docData.readInts(values, freqs, count);
    }
  }

  /** Whether the current block is stored as a bit set. */
  boolean isBitSet() {
    return isBitSet;
  }

  /** The current block's bit set: bit {@code i} is doc {@link #bitSetBase()} + i. */
  FixedBitSet bitSet() {
    return bitSet;
  }

  int bitSetBase() {
    return bitSetBase;
  }

  /**
   * The current block's BlockPosPointer: BlockPosFP or BlockPosStart (see {@link
   * NvmPostingsFormat}); only for terms with SkipData.
   */
  long blockPosPointer() throws IOException {
    return skipData.readLong(layout.blockPosPointersFP() + (long) block * Long.BYTES);
  }

  /**
   * Extends a run of consecutive doc IDs that ends at the current block's last doc ({@code
   * blockRunEnd} is that doc + 1) over the following blocks that are runs themselves (as many docs
   * as their doc ID span), from the skip table alone, and returns one past the run's last doc.
   */
  int runEndAcrossBlocks(int blockRunEnd) {
    if (layout.hasSkipData() == false) {
      return blockRunEnd;
    }
    int end = blockRunEnd;
    for (int next = block + 1; next < layout.numBlocks(); next++) {
      int nextCount = Math.min(BLOCK_SIZE, docFreq - next * BLOCK_SIZE);
      if (lastDocs[next] - lastDocs[next - 1] != nextCount) {
        break;
      }
      end = lastDocs[next] + 1;
    }
    return end;
  }
}
