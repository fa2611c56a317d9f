package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.store.RandomAccessInput;

/**
 * A term's doc IDs, read in place: {@code count} strictly increasing int32 values starting at
 * {@code base} in a {@link RandomAccessInput}.
 */
final class DocIdArray {
  /** Ranges up to this many doc IDs are binary-searched directly, larger ones galloped first. */
  private static final int BINARY_SEARCH_RANGE = NvmPostingsFormat.BLOCK_SIZE;

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
   * Returns the smallest index {@code > index} whose doc ID is {@code >= target}, or {@link
   * #count()} if there is none, where {@code doc} is the doc ID at {@code index} ({@code -1} for
   * index {@code -1}).
   *
   * <p>Doc IDs are strictly increasing integers, so the answer is at most {@code index + (target -
   * doc)}: on dense lists that bound alone leaves a short binary search. Longer ranges are galloped
   * (doubling steps from {@code index + 1}) before the binary search, so the cost is logarithmic in
   * the distance skipped, not in the list length.
   */
  int firstIndexAfter(int index, int doc, int target) throws IOException {
    int low = index + 1;
    // Either count, or an index whose doc ID is known to be >= target.
    int high = (int) Math.max(low, Math.min(count, (long) index + target - doc));
    if (high - low > BINARY_SEARCH_RANGE) {
      int probe = low;
      long step = 1;
      while (probe < high && get(probe) < target) {
        low = probe + 1;
        probe = (int) Math.min(high, probe + step);
        step <<= 1;
      }
      high = probe;
    }
    // Every index below low holds a doc ID < target; high is count or holds a doc ID >= target.
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
