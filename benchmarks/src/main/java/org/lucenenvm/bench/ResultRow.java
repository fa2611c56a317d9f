package org.lucenenvm.bench;

/**
 * One line of the results: one workload (task category, or {@value #ALL} for all of them) run on one
 * configuration in one mode.
 *
 * <p>Latencies are in microseconds. {@code unseenMean}/{@code unseenMax} (acknowledged documents the
 * query's reader could not see) are {@code NaN}/-1 in NC mode, where nothing is ingested while
 * querying. The runner writes only {@value #OK} rows; CSV files of older runs may hold rows with
 * another status (a reason nothing was measured), which tables print and plots leave out.
 *
 * @param mode {@code NC} or {@code WRT}
 * @param configuration configuration name ({@code NRT-<interval>} in WRT mode)
 * @param status {@code ok} or the reason nothing was measured
 * @param category task category or {@value #ALL}
 * @param queries timed queries
 * @param qps timed queries per second of wall time (WRT: this category's share of the mixed stream)
 * @param docs documents indexed
 * @param ingestDocsPerSecond documents added (plus commit) per second
 * @param indexBytes bytes of all files of the index
 * @param heapBytes used heap after GC with the index open
 * @param ingestTargetDocsPerSecond WRT with {@code --ingest-rate}: the rate ingestion was paced at,
 *     else {@code NaN}
 * @param ingestMaxLagMillis WRT with {@code --ingest-rate}: the most a document's turn started
 *     after it was due, ms, else {@code NaN}
 */
public record ResultRow(
    String mode,
    String configuration,
    String status,
    String category,
    long queries,
    double p50Micros,
    double p95Micros,
    double p99Micros,
    double meanMicros,
    double maxMicros,
    double qps,
    double meanHits,
    long zeroHitQueries,
    double unseenMean,
    long unseenMax,
    long docs,
    double ingestDocsPerSecond,
    long indexBytes,
    long heapBytes,
    double ingestTargetDocsPerSecond,
    double ingestMaxLagMillis) {

  /** Category name of the row that merges all categories. */
  public static final String ALL = "All";
  /** Status of a measured row. */
  public static final String OK = "ok";

  /** Whether this row holds measurements. */
  public boolean measured() {
    return OK.equals(status);
  }

  /** How the paced ingest of this row went, or {@code null} if ingestion was not paced. */
  public IngestPace ingestPace() {
    return Double.isNaN(ingestTargetDocsPerSecond) ? null : new IngestPace(ingestTargetDocsPerSecond, ingestDocsPerSecond, ingestMaxLagMillis);
  }

  /** A measured row built from {@code stats}; latencies and hits are {@code NaN} if it is empty. */
  public static ResultRow measured(
      String mode, String configuration, String category, LatencyStats stats, double seconds, boolean realTime, IndexFacts facts) {
    if (stats.count() == 0) {
      return new ResultRow(mode, configuration, OK, category, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, 0,
          Double.NaN, -1, facts.docs(), facts.ingestDocsPerSecond(), facts.indexBytes(), facts.heapBytes(), facts.paceTarget(), facts.paceMaxLag());
    }
    return new ResultRow(
        mode,
        configuration,
        OK,
        category,
        stats.count(),
        stats.percentileMicros(50),
        stats.percentileMicros(95),
        stats.percentileMicros(99),
        stats.meanMicros(),
        stats.maxMicros(),
        seconds > 0 ? stats.count() / seconds : Double.NaN,
        stats.meanHits(),
        stats.zeroHitQueries(),
        realTime ? stats.unseenMean() : Double.NaN,
        realTime ? stats.unseenMax() : -1,
        facts.docs(),
        facts.ingestDocsPerSecond(),
        facts.indexBytes(),
        facts.heapBytes(),
        facts.paceTarget(),
        facts.paceMaxLag());
  }

  /**
   * Facts about the index a configuration built, shared by all its rows; {@code pace} is {@code
   * null} unless ingestion was paced.
   */
  public record IndexFacts(long docs, double ingestDocsPerSecond, long indexBytes, long heapBytes, IngestPace pace) {

    /** Facts of an unpaced ingestion. */
    public IndexFacts(long docs, double ingestDocsPerSecond, long indexBytes, long heapBytes) {
      this(docs, ingestDocsPerSecond, indexBytes, heapBytes, null);
    }

    double paceTarget() {
      return pace == null ? Double.NaN : pace.targetDocsPerSecond();
    }

    double paceMaxLag() {
      return pace == null ? Double.NaN : pace.maxLagMillis();
    }
  }
}
