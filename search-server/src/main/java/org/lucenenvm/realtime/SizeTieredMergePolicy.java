package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Chooses which Lucene segments of a partition to merge, by size, so that the partition never
 * holds more than {@code maxSegments} of them. Nothing is merged while the count is within the
 * limit. Above it, the smallest segments are merged: at least enough to get back under the limit,
 * and more while the next-larger segment is no bigger than what is already chosen (so a merge
 * joins segments of similar size, and each document is rewritten about once per factor of growth,
 * as in a tiered policy), never more than {@code maxMergeWidth} at once.
 */
final class SizeTieredMergePolicy {
  private final int maxSegments;
  private final int maxMergeWidth;

  SizeTieredMergePolicy(int maxSegments, int maxMergeWidth) {
    if (maxSegments < 1 || maxMergeWidth < 2) {
      throw new IllegalArgumentException(
          "need maxSegments >= 1 and maxMergeWidth >= 2, got "
              + maxSegments
              + ", "
              + maxMergeWidth);
    }
    this.maxSegments = maxSegments;
    this.maxMergeWidth = maxMergeWidth;
  }

  /**
   * The segments to merge next (smallest first), or an empty list when {@code segments} are within
   * the limit.
   */
  <T> List<T> select(List<T> segments, ToLongFunction<T> size) {
    if (segments.size() <= maxSegments) {
      return List.of();
    }
    List<T> bySize = new ArrayList<>(segments);
    bySize.sort(Comparator.comparingLong(size));
    int needed = Math.min(maxMergeWidth, Math.max(2, segments.size() - maxSegments + 1));
    long chosen = 0;
    int count = 0;
    while (count < bySize.size() && count < maxMergeWidth) {
      long next = size.applyAsLong(bySize.get(count));
      if (count >= needed && next > chosen) {
        break;
      }
      chosen += next;
      count++;
    }
    return List.copyOf(bySize.subList(0, count));
  }
}
