package org.lucenenvm.bench;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

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
  /** The columns {@link #fields()} fills, in {@code engine.csv}. */
  static final String HEADER = "paired_queries,paired_cached_ms,paired_uncached_ms,paired_speedup";

  /** Empty fields, for a run without pairs. */
  static final List<String> NO_FIELDS = Collections.nCopies(4, "");

  private final AtomicLong started = new AtomicLong();
  private final LongAdder pairs = new LongAdder();
  private final LongAdder cachedNanos = new LongAdder();
  private final LongAdder uncachedNanos = new LongAdder();

  /** Whether the next pair runs its uncached search first (every other pair). */
  public boolean nextUncachedFirst() {
    return (started.getAndIncrement() & 1) == 1;
  }

  /** Records one query's cached and uncached search times. */
  public void record(long cached, long uncached) {
    pairs.increment();
    cachedNanos.add(cached);
    uncachedNanos.add(uncached);
  }

  /** Pairs recorded so far. */
  public long pairs() {
    return pairs.sum();
  }

  @Override
  public String toString() {
    return HEADER + "=" + String.join(",", fields());
  }

  /** The {@link #HEADER} fields: pairs, each side's total in milliseconds, and the speed-up. */
  public List<String> fields() {
    long cached = cachedNanos.sum();
    long uncached = uncachedNanos.sum();
    return List.of(
        Long.toString(pairs.sum()),
        CsvTable.number(cached / 1e6, 1),
        CsvTable.number(uncached / 1e6, 1),
        cached == 0 ? "" : CsvTable.number((double) uncached / cached, 3));
  }
}
