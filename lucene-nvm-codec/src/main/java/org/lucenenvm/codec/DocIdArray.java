package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.store.RandomAccessInput;

/**
 * A term's doc IDs, read in place: {@code count} strictly increasing int32 values starting at
 * {@code base} in a {@link RandomAccessInput}.
 */
final class DocIdArray {
  private final RandomAccessInput in;
  private long base;
  private int count;

  DocIdArray(RandomAccessInput in) {
    this.in = in;
  }

  void reset(long base, int count) {
    this.base = base;
    this.count = count;
  }

  int count() {
    return count;
  }

  /** The doc ID at {@code index}, which must be in {@code [0, count)}. */
  int get(int index) throws IOException {
    return in.readInt(base + ((long) index << 2));
  }

  /**
   * Returns the smallest index {@code >= from} whose doc ID is {@code >= target}, or {@link
   * #count()} if there is none. Gallops from {@code from} with doubling steps, then binary-searches
   * the last step, so the cost is logarithmic in the distance skipped, not in the list length.
   */
  int firstIndexAtLeast(int from, int target) throws IOException {
    int low = from;
    int high = from;
    long step = 1;
    while (high < count && get(high) < target) {
      low = high + 1;
      high = (int) Math.min(count, high + step);
      step <<= 1;
    }
    // Every index below low holds a doc ID < target; high == count or holds a doc ID >= target.
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (get(mid) < target) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
