package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.lucenenvm.realtime.CacheOutcome;

/**
 * The result cache's speed-up measured inside one JVM ({@code --rt-cache ...-paired}): every timed
 * query runs twice on the same snapshot, through the cache and bypassing it, the two runs back to
 * back and their order alternating from one query to the next (so that neither side is always the
 * one that finds the query's data in the CPU caches, or the statistics epoch's memo filled by the
 * other). The speed-up is the uncached runs' total time over the cached runs' total time: the ratio
 * of the two sides' query rates for one query thread, with the JIT, the host's speed and the
 * ingestion all shared by both sides, which separate JVMs do not share. The uncached side is the
 * same engine with the cache bypassed (its statistics epoch included), not an engine configured
 * without a cache. Thread-safe.
 */
public final class PairedCacheTime {
  /**
   * The columns {@link #fields()} fills, in {@code engine.csv}: all pairs, then the pairs whose
   * cached run was a hit (own entry or Partial Type I) and those whose cached run was a miss apart
   * (what a miss costs against the same query uncached, and which queries the cache holds).
   */
  static final String HEADER =
      "paired_queries,paired_cached_ms,paired_uncached_ms,paired_speedup,"
          + "paired_hits,paired_hit_cached_ms,paired_hit_uncached_ms,"
          + "paired_misses,paired_miss_cached_ms,paired_miss_uncached_ms";

  /** Empty fields, for a run without pairs. */
  static final List<String> NO_FIELDS = Collections.nCopies(10, "");

  private final AtomicLong started = new AtomicLong();
  private final Sums all = new Sums();
  private final Sums hits = new Sums();
  private final Sums misses = new Sums();

  /** Pairs and the total time of each side. */
  private static final class Sums {
    final LongAdder pairs = new LongAdder();
    final LongAdder cachedNanos = new LongAdder();
    final LongAdder uncachedNanos = new LongAdder();

    void add(long cached, long uncached) {
      pairs.increment();
      cachedNanos.add(cached);
      uncachedNanos.add(uncached);
    }

    List<String> fields() {
      return List.of(
          Long.toString(pairs.sum()),
          CsvTable.number(cachedNanos.sum() / 1e6, 1),
          CsvTable.number(uncachedNanos.sum() / 1e6, 1));
    }
  }

  /** Whether the next pair runs its uncached search first (every other pair). */
  public boolean nextUncachedFirst() {
    return (started.getAndIncrement() & 1) == 1;
  }

  /** Records one query's cached search time, with the cache's {@code outcome}, and uncached one. */
  public void record(CacheOutcome outcome, long cached, long uncached) {
    all.add(cached, uncached);
    if (outcome.isHit()) {
      hits.add(cached, uncached);
    } else if (outcome == CacheOutcome.MISS) {
      misses.add(cached, uncached);
    }
  }

  @Override
  public String toString() {
    return HEADER + "=" + String.join(",", fields());
  }

  /**
   * The {@link #HEADER} fields: pairs, each side's total in milliseconds and the speed-up; then
   * pairs and totals of the hits and of the misses.
   */
  public List<String> fields() {
    long cached = all.cachedNanos.sum();
    List<String> f = new ArrayList<>(all.fields());
    f.add(cached == 0 ? "" : CsvTable.number((double) all.uncachedNanos.sum() / cached, 3));
    f.addAll(hits.fields());
    f.addAll(misses.fields());
    return f;
  }
}
