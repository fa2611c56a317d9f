package org.lucenenvm.realtime;

import java.util.Locale;

/**
 * How full an engine's NVM pool is, and whether the engine refuses adds and updates because of it
 * ({@link RtEngine#poolUsage()}).
 *
 * @param pool the pool file (or, for an NVM tier that is not an {@link
 *     org.lucenenvm.store.NvmDirectory}, the directory's description)
 * @param usedBytes bytes of the pool in use: segment files, ingest logs, cache region, manifests,
 *     file table and header (0 without a pool)
 * @param totalBytes the pool's size (0 without a pool: no watermark applies)
 * @param growableBytes bytes the pool can still grow by while open ({@link
 *     org.lucenenvm.store.NvmDirectory#growableBytes()}; 0 with growth off or at its maximum)
 * @param floodStage the watermark, a fraction of {@code totalBytes + growableBytes} ({@link
 *     RtEngineConfig#floodStage()})
 * @param floodStageReached whether {@code usedBytes} is at or above the watermark
 * @param waitingFor while a pipeline stage waits for room (a segment to engrave, a manifest to
 *     write), the refusal that made it wait, naming what and the numbers; null when nothing waits
 */
public record NvmUsage(
    String pool,
    long usedBytes,
    long totalBytes,
    long growableBytes,
    double floodStage,
    boolean floodStageReached,
    String waitingFor) {

  /** Whether adds and updates are refused now: flood stage reached, or a stage waits for room. */
  public boolean refusesWrites() {
    return floodStageReached || waitingFor != null;
  }

  /**
   * The figures in words, e.g. {@code 15,938,560 of 16,777,216 bytes used (95.0%), flood stage
   * 95%}; a pool that can still grow adds it, e.g. {@code 15,938,560 of 16,777,216 bytes used, the
   * pool can grow by 8,388,608 more (63.3% of 25,165,824), flood stage 95%}.
   */
  public String describe() {
    long reachable = totalBytes + growableBytes;
    double share = reachable == 0 ? 0.0 : 100.0 * usedBytes / reachable;
    if (growableBytes == 0) {
      return String.format(
          Locale.ROOT, "%,d of %,d bytes used (%.1f%%), flood stage %s%%", usedBytes, totalBytes, share, percent(floodStage));
    }
    return String.format(
        Locale.ROOT,
        "%,d of %,d bytes used, the pool can grow by %,d more (%.1f%% of %,d), flood stage %s%%",
        usedBytes,
        totalBytes,
        growableBytes,
        share,
        reachable,
        percent(floodStage));
  }

  private static String percent(double fraction) {
    String s = String.format(Locale.ROOT, "%.2f", fraction * 100);
    return s.replaceAll("\\.?0+$", "");
  }
}
