package org.lucenenvm.bench;

import java.util.Locale;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.lucenenvm.realtime.CacheOutcome;

/**
 * The engine's search time of timed queries, split by the result cache's outcome: hits (own entry
 * or Partial Type I) and misses, in nanoseconds with 3 significant digits. Queries that bypass the
 * cache are not recorded. Thread-safe: every query thread records into the same histograms.
 */
public final class CacheOutcomeLatency {
  /** The columns {@link #columns()} fills, in {@code engine.csv}. */
  static final String HEADER =
      "cache_timed_hits,cache_hit_p50_us,cache_hit_p99_us,cache_timed_misses,cache_miss_p50_us,cache_miss_p99_us";

  /** Empty columns, for a run without a cache. */
  static final String NO_COLUMNS = ",,,,,";

  private final Histogram hits = new ConcurrentHistogram(3);
  private final Histogram misses = new ConcurrentHistogram(3);

  /** Records one search of {@code nanos} with {@code outcome}. */
  public void record(CacheOutcome outcome, long nanos) {
    if (outcome == CacheOutcome.BYPASSED) {
      return;
    }
    (outcome.isHit() ? hits : misses).recordValue(Math.max(1, nanos));
  }

  /** Hits timed so far. */
  public long hits() {
    return hits.getTotalCount();
  }

  /** Misses timed so far. */
  public long misses() {
    return misses.getTotalCount();
  }

  /** The {@link #HEADER} columns: count, P50 and P99 in microseconds of hits, then of misses. */
  public String columns() {
    return part(hits) + "," + part(misses);
  }

  private static String part(Histogram h) {
    if (h.getTotalCount() == 0) {
      return "0,,";
    }
    return String.format(Locale.ROOT, "%d,%.1f,%.1f", h.getTotalCount(), h.getValueAtPercentile(50) / 1e3,
        h.getValueAtPercentile(99) / 1e3);
  }
}
