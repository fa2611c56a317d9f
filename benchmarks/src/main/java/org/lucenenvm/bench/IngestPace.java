package org.lucenenvm.bench;

import java.util.Locale;

/**
 * How a paced ingest ({@code --ingest-rate}, {@link IngestPacer}) went: the rate asked for, the
 * rate achieved (documents over the ingest's wall time) and how late, at most, a document's turn
 * started. It kept up if it achieved at least {@value #KEPT_UP_SHARE} of the target: a
 * configuration that cannot ingest that fast is reported as such, not as the same load.
 *
 * @param targetDocsPerSecond the rate asked for
 * @param achievedDocsPerSecond documents / ingest wall time
 * @param maxLagMillis the most a document's turn started after it was due, ms
 */
public record IngestPace(double targetDocsPerSecond, double achievedDocsPerSecond, double maxLagMillis) {

  /** The share of the target rate an ingest must achieve to have kept up. */
  public static final double KEPT_UP_SHARE = 0.99;

  /** Whether the achieved rate is at least {@value #KEPT_UP_SHARE} of the target. */
  public boolean keptUp() {
    return achievedDocsPerSecond >= KEPT_UP_SHARE * targetDocsPerSecond;
  }

  /** One line: target, achieved, max lag, and whether it kept up. */
  public String describe() {
    return String.format(Locale.ROOT, "paced at %,.0f docs/s: achieved %,.0f docs/s, max lag %,.1f ms, %s", targetDocsPerSecond,
        achievedDocsPerSecond, maxLagMillis, keptUp() ? "kept up" : "DID NOT KEEP UP (below " + Math.round(KEPT_UP_SHARE * 100) + " % of the rate)");
  }
}
