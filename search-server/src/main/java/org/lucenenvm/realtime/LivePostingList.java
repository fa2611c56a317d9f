package org.lucenenvm.realtime;

/**
 * One term's postings as a snapshot of {@code maxDoc} documents sees them: how many postings are
 * visible, how many whole blocks (with their summaries) they span, the total term freq, and the
 * competitive impact of the trailing partial block. Built once per term lookup from the term's
 * acquired state (see {@link LiveTermPostings} for why it never reads a torn posting).
 *
 * @param postings the field's postings
 * @param slabs the pool's slabs, loaded after the term's state
 * @param start address of the term's first slice
 * @param summaries block summaries (null when no block is sealed)
 * @param blocks whole blocks below {@code size}, each with a summary
 * @param size visible postings (the doc freq)
 * @param totalTermFreq sum of the visible postings' freqs
 * @param tailMaxFreq max freq in the postings after the last whole block
 * @param tailMinNorm min norm (unsigned) of those postings
 */
record LivePostingList(
    LiveTermPostings postings,
    byte[][] slabs,
    int start,
    int[] summaries,
    int blocks,
    int size,
    long totalTermFreq,
    int tailMaxFreq,
    long tailMinNorm) {

  /** Whether term {@code id} has a posting below {@code maxDoc} (cheap unless it is being added). */
  static boolean visible(LiveTermPostings postings, int id, int maxDoc) {
    long state = postings.state(id);
    if ((int) (state >>> 32) == 0) {
      return false;
    }
    return (int) state < maxDoc || of(postings, id, maxDoc) != null;
  }

  /** The postings of term {@code id} below {@code maxDoc}, or null when none is visible. */
  static LivePostingList of(LiveTermPostings postings, int id, int maxDoc) {
    long state = postings.state(id);
    int count = (int) (state >>> 32);
    if (count == 0) {
      return null;
    }
    int lastDoc = (int) state;
    int[] summaries = postings.summaries(id);
    byte[][] slabs = postings.slabs();
    int start = postings.start(id);
    LivePostingCursor cursor = new LivePostingCursor(slabs, postings.withPositions());
    int size;
    if (lastDoc < maxDoc) {
      size = count;
    } else {
      // The last counted posting may be a document still being added: never decode it.
      int stable = count - 1;
      int block = firstBlockReaching(summaries, stable / LiveTermPostings.BLOCK, maxDoc);
      cursor.resetToBlock(summaries, block - 1, start);
      size = block * LiveTermPostings.BLOCK;
      int limit = Math.min(stable, size + LiveTermPostings.BLOCK);
      while (size < limit && cursor.next() < maxDoc) {
        size++;
      }
      if (size == 0) {
        return null;
      }
    }
    int blocks = size / LiveTermPostings.BLOCK;
    cursor.resetToBlock(summaries, blocks - 1, start);
    long totalTermFreq =
        blocks == 0 ? 0 : summaries[(blocks - 1) * LiveTermPostings.SUMMARY_INTS + 4];
    int maxFreq = 0;
    long minNorm = -1L;
    LiveField field = postings.field();
    for (int i = blocks * LiveTermPostings.BLOCK; i < size; i++) {
      int doc = cursor.next();
      int freq = cursor.freq();
      totalTermFreq += freq;
      maxFreq = Math.max(maxFreq, freq);
      long norm = field.normOrOne(doc);
      if (Long.compareUnsigned(norm, minNorm) < 0) {
        minNorm = norm;
      }
    }
    if (maxFreq == 0) {
      // no partial block: its impact covers no doc, keep it a valid (freq >= 1) pair
      maxFreq = 1;
      minNorm = 1L;
    }
    return new LivePostingList(
        postings, slabs, start, summaries, blocks, size, totalTermFreq, maxFreq, minNorm);
  }

  /** The first of the first {@code blocks} blocks whose last doc is at least {@code doc}. */
  private static int firstBlockReaching(int[] summaries, int blocks, int doc) {
    int lo = 0;
    int hi = blocks;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (summaries[mid * LiveTermPostings.SUMMARY_INTS] < doc) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  boolean hasPositions() {
    return postings.withPositions();
  }

  int blockLastDoc(int block) {
    return summaries[block * LiveTermPostings.SUMMARY_INTS];
  }

  int blockMaxFreq(int block) {
    return summaries[block * LiveTermPostings.SUMMARY_INTS + 5];
  }

  long blockMinNorm(int block) {
    int s = block * LiveTermPostings.SUMMARY_INTS;
    return (long) summaries[s + 6] << 32 | (summaries[s + 7] & 0xFFFFFFFFL);
  }
}
