package org.lucenenvm.bench;

import org.HdrHistogram.Histogram;

/**
 * Per-category measurements of timed queries: latency histogram (nanoseconds, 3 significant
 * digits), hit counts (Lucene's top-k total hits: exact up to 1,000, a lower bound beyond) and, in WRT mode, how many acknowledged documents each query's reader could
 * not see. Not thread-safe: each query thread fills its own and they are {@link #add added} at the
 * end.
 */
public final class LatencyStats {

  private final Histogram latencyNanos = new Histogram(3);
  private long hitsTotal;
  private long zeroHitQueries;
  private long unseenTotal;
  private long unseenMax;

  /** Records one query. */
  public void record(long nanos, long hits, long unseenDocs) {
    latencyNanos.recordValue(Math.max(1, nanos));
    hitsTotal += hits;
    if (hits == 0) {
      zeroHitQueries++;
    }
    unseenTotal += unseenDocs;
    unseenMax = Math.max(unseenMax, unseenDocs);
  }

  /** Adds everything {@code other} recorded. */
  public void add(LatencyStats other) {
    latencyNanos.add(other.latencyNanos);
    hitsTotal += other.hitsTotal;
    zeroHitQueries += other.zeroHitQueries;
    unseenTotal += other.unseenTotal;
    unseenMax = Math.max(unseenMax, other.unseenMax);
  }

  /** Number of recorded queries. */
  public long count() {
    return latencyNanos.getTotalCount();
  }

  /** Latency at {@code percentile} (0..100) in microseconds. */
  public double percentileMicros(double percentile) {
    return latencyNanos.getValueAtPercentile(percentile) / 1_000.0;
  }

  /** Mean latency in microseconds. */
  public double meanMicros() {
    return latencyNanos.getMean() / 1_000.0;
  }

  /** Largest latency in microseconds. */
  public double maxMicros() {
    return latencyNanos.getMaxValue() / 1_000.0;
  }

  /** Mean total hits per query. */
  public double meanHits() {
    return count() == 0 ? 0 : (double) hitsTotal / count();
  }

  /** Queries that matched nothing. */
  public long zeroHitQueries() {
    return zeroHitQueries;
  }

  /** Mean number of acknowledged documents a query's reader could not see. */
  public double unseenMean() {
    return count() == 0 ? 0 : (double) unseenTotal / count();
  }

  /** Largest number of acknowledged documents a query's reader could not see. */
  public long unseenMax() {
    return unseenMax;
  }
}
