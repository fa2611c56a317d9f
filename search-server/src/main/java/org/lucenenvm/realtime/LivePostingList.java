package org.lucenenvm.realtime;

import org.apache.lucene.util.ArrayUtil;

/**
 * The growable posting list of one term in a {@link LiveSegment}: doc ids ascending, and for
 * position-indexed fields the start of each posting's positions in one shared positions array.
 *
 * <p>One writer appends whole postings; any number of readers read concurrently. The writer fills
 * array slots, replaces a full array by a larger copy (published through a volatile field), then
 * publishes the new size with one volatile store of {@code size << 32 | positionsEnd}. A reader
 * reads that word first and the arrays afterwards, so every slot below the size it saw is visible
 * to it (happens-before through the volatile store).
 */
final class LivePostingList {
  private static final int INITIAL = 2;

  private volatile int[] docs = new int[INITIAL];
  private volatile int[] posStarts;
  private volatile int[] positions;
  private volatile long published;

  private int size;
  private int positionsEnd;

  LivePostingList(boolean withPositions) {
    if (withPositions) {
      posStarts = new int[INITIAL];
      positions = new int[INITIAL * 2];
    }
  }

  /**
   * Appends the posting of {@code doc} with the first {@code count} entries of {@code
   * termPositions} (ignored for docs-only lists). Returns the array bytes newly allocated.
   */
  long add(int doc, int[] termPositions, int count) {
    long allocated = 0;
    int[] d = docs;
    if (size == d.length) {
      d = ArrayUtil.grow(d, size + 1);
      allocated += (long) (d.length - size) * Integer.BYTES;
      docs = d;
    }
    d[size] = doc;
    int[] starts = posStarts;
    if (starts != null) {
      if (size == starts.length) {
        starts = ArrayUtil.grow(starts, size + 1);
        allocated += (long) (starts.length - size) * Integer.BYTES;
        posStarts = starts;
      }
      starts[size] = positionsEnd;
      int[] p = positions;
      if (positionsEnd + count > p.length) {
        int old = p.length;
        p = ArrayUtil.grow(p, positionsEnd + count);
        allocated += (long) (p.length - old) * Integer.BYTES;
        positions = p;
      }
      System.arraycopy(termPositions, 0, p, positionsEnd, count);
      positionsEnd += count;
    }
    size++;
    published = ((long) size << 32) | positionsEnd;
    return allocated;
  }

  /** A consistent read-only view of the postings of docs below {@code maxDoc}, or null if none. */
  View view(int maxDoc) {
    long p = published;
    int publishedSize = (int) (p >>> 32);
    int publishedPositionsEnd = (int) p;
    int[] d = docs;
    int n = lowerBound(d, publishedSize, maxDoc);
    if (n == 0) {
      return null;
    }
    int[] starts = posStarts;
    if (starts == null) {
      return new View(d, null, null, n, n);
    }
    int end = n == publishedSize ? publishedPositionsEnd : starts[n];
    return new View(d, starts, positions, n, end);
  }

  private static int lowerBound(int[] docs, int size, int key) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (docs[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Postings of one term as one snapshot saw them.
   *
   * @param docs doc ids, ascending, valid below {@code size}
   * @param posStarts start of each posting's positions, or null for docs-only fields
   * @param positions all positions, valid below {@code positionsEnd}
   * @param size number of postings (the doc freq)
   * @param positionsEnd total number of positions (the total term freq; {@code size} when
   *     docs-only)
   */
  record View(int[] docs, int[] posStarts, int[] positions, int size, int positionsEnd) {
    int freq(int index) {
      if (posStarts == null) {
        return 1;
      }
      int end = index + 1 < size ? posStarts[index + 1] : positionsEnd;
      return end - posStarts[index];
    }
  }
}
