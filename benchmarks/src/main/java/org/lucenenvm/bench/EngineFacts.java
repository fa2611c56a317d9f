package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * @param categoryOutcomes with a cache: the same searches' cache outcome per query category,
 *     appended to {@value CategoryCacheOutcomes#FILE}; else null
 * @param pairedTime with a paired cache ({@link RtCache#paired()}): the timed queries' cached and
 *     uncached search times ({@link PairedCacheTime#HEADER}); else null
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
    CacheOutcomeLatency cacheLatency,
    CategoryCacheOutcomes categoryOutcomes,
    PairedCacheTime pairedTime) {

  /** File name in the output directory. */
  public static final String FILE = "engine.csv";

  /** The header line. */
  public static final String HEADER =
      "configuration,docs,dram_budget_bytes,peak_dram_bytes,sampled_max_dram_bytes,largest_dram_segment_bytes,"
          + "sampled_max_live_bytes,end_dram_bytes,end_nvm_bytes,end_segments,max_segments_per_partition,close_ms,reopen_ms,reopened_docs,reopened_nvm_bytes,"
          + "segment_wait_ms,"
          + "cache_hits,cache_partial_hits,cache_misses,cache_hit_rate,cache_evictions,cache_invalidations,cache_entries,cache_bytes,cache_tail_resumes,"
          + "restart_cache_hit_rate,"
          + CacheOutcomeLatency.HEADER
          + ","
          + PairedCacheTime.HEADER;

  /**
   * Appends this line to {@code dir}/{@value #FILE}, writing the header first if the file is new,
   * and with a cache its categories' lines to {@value CategoryCacheOutcomes#FILE}.
   */
  public void appendTo(Path dir) throws IOException {
    CsvTable.append(dir.resolve(FILE), List.of(HEADER.split(",")), fields());
    if (categoryOutcomes != null) {
      categoryOutcomes.appendTo(dir, configuration);
    }
  }

  /** The fields of this line, in {@link #HEADER}'s order. */
  private List<String> fields() {
    List<String> f = new ArrayList<>(List.of(configuration, Long.toString(docs), Long.toString(dramBudgetBytes),
        Long.toString(peakDramBytes), Long.toString(sampledMaxDramBytes), Long.toString(largestDramSegmentBytes),
        Long.toString(sampledMaxLiveBytes), Long.toString(endDramBytes), Long.toString(endNvmBytes), endSegments.replace(',', ' '),
        Integer.toString(sampledMaxSegmentsPerPartition), CsvTable.number(closeMillis, 1), optional(reopenMillis, 1),
        count(reopenedDocs), count(reopenedNvmBytes), CsvTable.number(segmentWaitMillis, 1)));
    f.addAll(cacheFields(cache));
    f.add(cacheAfterRestart == null ? "" : CsvTable.number(cacheAfterRestart.hitRate(), 4));
    f.addAll(cacheLatency == null ? CacheOutcomeLatency.NO_FIELDS : cacheLatency.fields());
    f.addAll(pairedTime == null ? PairedCacheTime.NO_FIELDS : pairedTime.fields());
    return f;
  }

  /** {@code v} with {@code decimals} digits, or an empty field when it does not apply (negative). */
  private static String optional(double v, int decimals) {
    return v < 0 ? "" : CsvTable.number(v, decimals);
  }

  /** {@code v}, or an empty field when it does not apply (negative). */
  private static String count(long v) {
    return v < 0 ? "" : Long.toString(v);
  }

  private static List<String> cacheFields(ResultCacheStats c) {
    if (c == null) {
      return Collections.nCopies(9, "");
    }
    return List.of(Long.toString(c.hits()), Long.toString(c.partialHits()), Long.toString(c.misses()),
        CsvTable.number(c.hitRate(), 4), Long.toString(c.evictions()), Long.toString(c.invalidations()),
        Long.toString(c.entries()), Long.toString(c.bytes()), Long.toString(c.tailResumes()));
  }
}
