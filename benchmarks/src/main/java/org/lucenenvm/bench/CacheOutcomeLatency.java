package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.lucenenvm.realtime.CacheOutcome;

/**
 * The engine's search time of timed queries, split by the result cache's outcome: hits (own entry
 * or Partial Type I) and misses, in nanoseconds with 3 significant digits. Queries that bypass the
 * cache are not recorded. Thread-safe: every query thread records into the same histograms.
 */
public final class CacheOutcomeLatency {
  /** The columns {@link #fields()} fills, in {@code engine.csv}. */
  static final String HEADER =
      "cache_timed_hits,cache_hit_p50_us,cache_hit_p99_us,cache_timed_misses,cache_miss_p50_us,cache_miss_p99_us";

  /** Empty fields, for a run without a cache. */
  static final List<String> NO_FIELDS = Collections.nCopies(6, "");

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

  /** The {@link #HEADER} fields: count, P50 and P99 in microseconds of hits, then of misses. */
  public List<String> fields() {
    List<String> fields = new ArrayList<>(part(hits));
    fields.addAll(part(misses));
    return fields;
  }

  private static List<String> part(Histogram h) {
    if (h.getTotalCount() == 0) {
      return List.of("0", "", "");
    }
    return List.of(Long.toString(h.getTotalCount()), CsvTable.number(h.getValueAtPercentile(50) / 1e3, 1),
        CsvTable.number(h.getValueAtPercentile(99) / 1e3, 1));
  }
}
