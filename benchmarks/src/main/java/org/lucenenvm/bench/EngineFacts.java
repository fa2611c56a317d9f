package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.lucenenvm.cache.ResultCacheStats;

/**
 * What a WRT run of the real-time engine measured beyond the query rows: DRAM and live-segment
 * bytes, segments, shutdown and restart. Appended to {@value #FILE} in the output directory, one
 * line per run after a header (columns as the components, bytes and milliseconds; an empty field
 * does not apply).
 *
 * @param configuration the row name, e.g. {@code RT-graceful-eager-lazy}
 * @param docs documents ingested
 * @param dramBudgetBytes the configured DRAM budget of read-optimized segments
 * @param peakDramBytes the largest DRAM held by read-optimized segments since open (the engine's
 *     own account, updated on every change)
 * @param sampledMaxDramBytes the largest DRAM held by segments in the twice-a-second samples
 * @param largestDramSegmentBytes the largest single DRAM segment copy
 * @param sampledMaxLiveBytes the largest live-segment bytes in the samples
 * @param endDramBytes DRAM held by segments when ingestion ended
 * @param endNvmBytes segment bytes in the NVM pool when ingestion ended
 * @param endSegments segments per state when ingestion ended
 * @param sampledMaxSegmentsPerPartition the most segments one partition's table held in any sample
 * @param closeMillis time of {@code RtEngine.close()} (GRACEFUL: flush, engrave, manifest)
 * @param reopenMillis GRACEFUL: time from opening the pool to the first query's result; else -1
 * @param reopenedDocs GRACEFUL: documents the reopened engine holds; else -1
 * @param reopenedNvmBytes GRACEFUL: segment bytes in the pool after the graceful close (the whole
 *     index); else -1
 * @param segmentWaitMillis time the ingest thread waited for a free segment slot (the engine
 *     keeping its segment limit while merges catch up)
 * @param cache the result cache's counters when ingestion ended (null without a cache)
 * @param cacheAfterRestart GRACEFUL with a cache: its counters after the first {@value
 *     EngineTarget#RESTART_QUERIES} queries after the restart; else null
 * @param cacheLatency with a cache: the engine's search time of the timed queries by cache outcome
 *     (hits and misses apart; {@link CacheOutcomeLatency#HEADER}); else null
 */
public record EngineFacts(
    String configuration,
    long docs,
    long dramBudgetBytes,
    long peakDramBytes,
    long sampledMaxDramBytes,
    long largestDramSegmentBytes,
    long sampledMaxLiveBytes,
    long endDramBytes,
    long endNvmBytes,
    String endSegments,
    int sampledMaxSegmentsPerPartition,
    double closeMillis,
    double reopenMillis,
    long reopenedDocs,
    long reopenedNvmBytes,
    double segmentWaitMillis,
    ResultCacheStats cache,
    ResultCacheStats cacheAfterRestart,
    CacheOutcomeLatency cacheLatency) {

  /** File name in the output directory. */
  public static final String FILE = "engine.csv";

  /** The header line. */
  public static final String HEADER =
      "configuration,docs,dram_budget_bytes,peak_dram_bytes,sampled_max_dram_bytes,largest_dram_segment_bytes,"
          + "sampled_max_live_bytes,end_dram_bytes,end_nvm_bytes,end_segments,max_segments_per_partition,close_ms,reopen_ms,reopened_docs,reopened_nvm_bytes,"
          + "segment_wait_ms,"
          + "cache_hits,cache_partial_hits,cache_misses,cache_hit_rate,cache_evictions,cache_invalidations,cache_entries,cache_bytes,"
          + "restart_cache_hit_rate,"
          + CacheOutcomeLatency.HEADER;

  /** Appends this line to {@code dir}/{@value #FILE}, writing the header first if the file is new. */
  public void appendTo(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    String line = String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%.1f,%s,%s,%s,%.1f,%s,%s,%s%n",
        configuration, docs, dramBudgetBytes, peakDramBytes, sampledMaxDramBytes, largestDramSegmentBytes, sampledMaxLiveBytes,
        endDramBytes, endNvmBytes, endSegments.replace(',', ' '), sampledMaxSegmentsPerPartition, closeMillis,
        reopenMillis < 0 ? "" : String.format(Locale.ROOT, "%.1f", reopenMillis), reopenedDocs < 0 ? "" : Long.toString(reopenedDocs),
        reopenedNvmBytes < 0 ? "" : Long.toString(reopenedNvmBytes), segmentWaitMillis, cacheColumns(cache),
        cacheAfterRestart == null ? "" : String.format(Locale.ROOT, "%.4f", cacheAfterRestart.hitRate()),
        cacheLatency == null ? CacheOutcomeLatency.NO_COLUMNS : cacheLatency.columns());
    String text = Files.exists(file) ? line : HEADER + System.lineSeparator() + line;
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static String cacheColumns(ResultCacheStats c) {
    if (c == null) {
      return ",,,,,,,";
    }
    return String.format(Locale.ROOT, "%d,%d,%d,%.4f,%d,%d,%d,%d",
        c.hits(), c.partialHits(), c.misses(), c.hitRate(), c.evictions(), c.invalidations(), c.entries(), c.bytes());
  }
}
