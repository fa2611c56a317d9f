package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The merge policy on its own: when it merges, what, and the segment count it keeps. */
public class SizeTieredMergePolicyTest extends LuceneTestCase {

  public void testNothingToMergeWithinTheLimit() {
    SizeTieredMergePolicy policy = new SizeTieredMergePolicy(8, 10);
    assertEquals(List.of(), policy.select(List.of(5L, 1L, 3L), Long::longValue));
    assertEquals(List.of(), policy.select(List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), Long::longValue));
  }

  public void testMergesSmallestSegmentsOfSimilarSize() {
    SizeTieredMergePolicy policy = new SizeTieredMergePolicy(3, 10);
    // over the limit by one: the two smallest at least, then every next one no larger than the sum
    assertEquals(List.of(1L, 1L, 2L), policy.select(List.of(100L, 2L, 1L, 1L), Long::longValue));
    // a large segment is not dragged into a merge of small ones
    assertEquals(List.of(1L, 1L), policy.select(List.of(100L, 1L, 50L, 1L), Long::longValue));
  }

  public void testMergeWidthIsBounded() {
    SizeTieredMergePolicy policy = new SizeTieredMergePolicy(2, 4);
    List<Long> ones = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ones.add(1L);
    }
    assertEquals(4, policy.select(ones, Long::longValue).size());
  }

  /**
   * Flushes of equal size, merged as the policy says after each: the count stays within the limit
   * and each document is rewritten a logarithmic number of times, not once per flush.
   */
  public void testSteadyIngestStaysWithinLimitWithBoundedRewrites() {
    int limit = 7;
    SizeTieredMergePolicy policy = new SizeTieredMergePolicy(limit, 10);
    List<Long> segments = new ArrayList<>();
    long written = 0;
    int flushes = 1000;
    for (int i = 0; i < flushes; i++) {
      segments.add(1L);
      written++;
      for (List<Long> merge = policy.select(segments, Long::longValue);
          !merge.isEmpty();
          merge = policy.select(segments, Long::longValue)) {
        long merged = 0;
        for (Long s : merge) {
          segments.remove(s);
          merged += s;
        }
        segments.add(merged);
        written += merged;
      }
      assertTrue(segments.size() + " segments", segments.size() <= limit);
    }
    assertEquals(flushes, segments.stream().mapToLong(Long::longValue).sum());
    assertTrue("write amplification " + (double) written / flushes, written < 12L * flushes);
  }

  public void testRefusesBadLimits() {
    expectThrows(IllegalArgumentException.class, () -> new SizeTieredMergePolicy(0, 10));
    expectThrows(IllegalArgumentException.class, () -> new SizeTieredMergePolicy(5, 1));
  }
}
