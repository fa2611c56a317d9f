package org.lucenenvm.realtime;

import java.util.Arrays;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * The deletions of one segment, immutable: a delete makes a new instance, so a query keeps the
 * deletions it started with while deletes keep coming. Copy-on-write per block: the live bits are
 * split into blocks of {@value #BLOCK_BITS} docs and a delete copies only the array of block
 * references and the one block it changes (a block never written is shared {@link #ALL_LIVE}), so
 * a delete under the engine's write lock costs O(capacity / {@value #BLOCK_BITS} + {@value
 * #BLOCK_WORDS}) words instead of a clone of the whole bit set.
 *
 * <p>Instances are published by the engine through a volatile field; their arrays are never
 * modified after construction, so readers of older instances see their own deletions.
 */
final class DeletedDocs implements Bits {
  private static final int BLOCK_SHIFT = 12;
  private static final int BLOCK_BITS = 1 << BLOCK_SHIFT;
  private static final int BLOCK_WORDS = BLOCK_BITS >>> 6;
  private static final long[] ALL_LIVE = allLive();

  private final long[][] blocks;
  private final int length;
  private final int count;

  private DeletedDocs(long[][] blocks, int length, int count) {
    this.blocks = blocks;
    this.length = length;
    this.count = count;
  }

  /**
   * Deletions from a bit set that is set for live docs (manifests and merges build them so).
   *
   * @param live set when the doc is live; its length is the segment's size
   * @param count number of deleted docs
   */
  DeletedDocs(FixedBitSet live, int count) {
    this(toBlocks(live), live.length(), count);
  }

  private static long[] allLive() {
    long[] words = new long[BLOCK_WORDS];
    Arrays.fill(words, -1L);
    return words;
  }

  private static long[][] toBlocks(FixedBitSet live) {
    long[] words = live.getBits();
    int length = live.length();
    long[][] blocks = new long[(length + BLOCK_BITS - 1) >>> BLOCK_SHIFT][];
    for (int b = 0; b < blocks.length; b++) {
      long[] block = new long[BLOCK_WORDS];
      Arrays.fill(block, -1L);
      int from = b * BLOCK_WORDS;
      System.arraycopy(
          words, from, block, 0, Math.min(BLOCK_WORDS, FixedBitSet.bits2words(length) - from));
      blocks[b] = block;
    }
    return blocks;
  }

  /** The deletions after deleting {@code doc} from {@code previous} (null = none yet). */
  static DeletedDocs delete(DeletedDocs previous, int doc, int capacity) {
    long[][] blocks;
    if (previous == null) {
      blocks = new long[(capacity + BLOCK_BITS - 1) >>> BLOCK_SHIFT][];
      Arrays.fill(blocks, ALL_LIVE);
    } else {
      blocks = previous.blocks.clone();
    }
    int length = previous == null ? capacity : previous.length;
    if (doc < 0 || doc >= length) {
      throw new IllegalArgumentException("doc " + doc + " out of [0, " + length + ")");
    }
    int b = doc >>> BLOCK_SHIFT;
    long[] block = blocks[b].clone();
    int bit = doc & (BLOCK_BITS - 1);
    long mask = 1L << bit;
    if ((block[bit >>> 6] & mask) == 0) {
      throw new IllegalStateException("doc " + doc + " is already deleted");
    }
    block[bit >>> 6] &= ~mask;
    blocks[b] = block;
    return new DeletedDocs(blocks, length, previous == null ? 1 : previous.count + 1);
  }

  /** Number of deleted docs. */
  int count() {
    return count;
  }

  boolean isLive(int doc) {
    return get(doc);
  }

  @Override
  public boolean get(int doc) {
    long[] block = blocks[doc >>> BLOCK_SHIFT];
    return (block[(doc & (BLOCK_BITS - 1)) >>> 6] & (1L << doc)) != 0;
  }

  @Override
  public int length() {
    return length;
  }

  /** A copy as one bit set, set for live docs (for manifests); docs beyond the size are set. */
  FixedBitSet live() {
    FixedBitSet bits = new FixedBitSet(length);
    long[] words = bits.getBits();
    for (int b = 0; b < blocks.length; b++) {
      int from = b * BLOCK_WORDS;
      System.arraycopy(blocks[b], 0, words, from, Math.min(BLOCK_WORDS, words.length - from));
    }
    int tail = length & 63;
    if (tail != 0) {
      words[words.length - 1] &= -1L >>> (64 - tail);
    }
    return bits;
  }

  /** Live docs as Lucene sees them for a segment of {@code maxDoc} docs. */
  Bits liveDocs(int maxDoc) {
    if (maxDoc == length) {
      return this;
    }
    return new Bits() {
      @Override
      public boolean get(int index) {
        return DeletedDocs.this.get(index);
      }

      @Override
      public int length() {
        return maxDoc;
      }
    };
  }
}
