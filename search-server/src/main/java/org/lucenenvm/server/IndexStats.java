package org.lucenenvm.server;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.realtime.NvmUsage;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineStats;
import org.lucenenvm.realtime.RtRecovery;
import org.lucenenvm.realtime.RtSegmentInfo;
import org.lucenenvm.realtime.SegmentState;

/**
 * A point-in-time account of one index, summed over its partitions: documents, segments per state
 * and per query tier, DRAM / NVM bytes, pool usage, pipeline stage work, ingest and query rates.
 *
 * @param index index name
 * @param partitions number of partitions
 * @param docs live (visible, not deleted) documents
 * @param segmentsByState segments per life-cycle state
 * @param segmentsByTier segments per tier queries read (LIVE, DRAM, NVM)
 * @param dramBytes read-optimized segment bytes in DRAM
 * @param liveSegmentBytes approximate bytes of live (write-optimized) segments
 * @param nvmBytes segment file bytes in the pool
 * @param poolBytes size of the pool file (it grows while the index serves unless {@code
 *     --pool-max-size} is 0)
 * @param poolMaxBytes the size the pool can reach now while the index serves: {@code poolBytes}
 *     plus what it can still grow by, up to {@code --pool-max-size} and as far as its file system
 *     keeps the margin usable (so with an unbounded maximum, the file system's room decides);
 *     {@code poolBytes} when it does not grow or cannot grow further
 * @param poolFreeBytes bytes of the pool not used
 * @param poolUsedBytes bytes of the pool in use ({@code poolBytes - poolFreeBytes}: segments, ingest
 *     logs, cache region, manifests, file table, header)
 * @param floodStage the flood-stage watermark, a share of {@code poolMaxBytes} ({@code --flood-stage})
 * @param floodStageReached whether {@code poolUsedBytes} is at or above the watermark
 * @param writesRefused whether adds and updates are refused now (429): flood stage reached, or a
 *     segment waits for room in the pool
 * @param stages per pipeline stage: busy time, items handled, items queued
 * @param ingestedDocs documents acknowledged since the server started
 * @param ingestDocsPerSecond documents acknowledged per second (last 10 s)
 * @param queries queries run since the server started
 * @param queriesPerSecond queries per second (last 10 s)
 * @param openMillis time it took to open (or reopen) the index
 * @param cache the result cache's counters and sizes since the index was opened, or null when the
 *     index has no cache
 * @param replayedOperations ingest log operations the open replayed (CRASH_CONSISTENT mode: the
 *     operations after the last durable segment; 0 in the other modes)
 */
public record IndexStats(
    String index,
    int partitions,
    long docs,
    Map<SegmentState, Integer> segmentsByState,
    Map<String, Integer> segmentsByTier,
    long dramBytes,
    long liveSegmentBytes,
    long nvmBytes,
    long poolBytes,
    long poolMaxBytes,
    long poolFreeBytes,
    long poolUsedBytes,
    double floodStage,
    boolean floodStageReached,
    boolean writesRefused,
    Map<String, StageWork> stages,
    long ingestedDocs,
    double ingestDocsPerSecond,
    long queries,
    double queriesPerSecond,
    double openMillis,
    ResultCacheStats cache,
    long replayedOperations) {

  /**
   * Work of one pipeline stage over all partitions.
   *
   * @param busyMillis time spent handling items
   * @param items items handled
   * @param queued items waiting
   */
  public record StageWork(double busyMillis, long items, int queued) {
    static StageWork of(RtEngineStats.Stage s) {
      return new StageWork(s.busyNanos() / 1e6, s.items(), s.queued());
    }

    StageWork plus(StageWork o) {
      return new StageWork(busyMillis + o.busyMillis, items + o.items, queued + o.queued);
    }
  }

  /** Collects the stats of {@code index}. */
  static IndexStats of(OpenIndex index) throws IOException {
    RtEngine engine = index.engine();
    long docs = 0;
    long dram = 0;
    long live = 0;
    long nvm = 0;
    Map<SegmentState, Integer> byState = new TreeMap<>();
    Map<String, Integer> byTier = new TreeMap<>();
    Map<String, StageWork> stages = new LinkedHashMap<>();
    for (int p = 0; p < engine.partitionCount(); p++) {
      RtEngineStats s = engine.stats(p);
      docs += s.liveDocs();
      dram += s.dramBytes();
      live += s.liveSegmentBytes();
      nvm += s.nvmBytes();
      s.segments().forEach((state, n) -> byState.merge(state, n, Integer::sum));
      s.stages().forEach((name, stage) -> stages.merge(name, StageWork.of(stage), StageWork::plus));
      for (RtSegmentInfo info : engine.segments(p)) {
        byTier.merge(info.queryTier(), 1, Integer::sum);
      }
    }
    NvmUsage pool = engine.poolUsage();
    return new IndexStats(
        index.definition().name(),
        engine.partitionCount(),
        docs,
        byState,
        byTier,
        dram,
        live,
        nvm,
        pool.totalBytes(),
        pool.totalBytes() + pool.growableBytes(),
        pool.totalBytes() - pool.usedBytes(),
        pool.usedBytes(),
        pool.floodStage(),
        pool.floodStageReached(),
        pool.refusesWrites(),
        stages,
        index.ingested().total(),
        index.ingested().perSecond(),
        index.queries().total(),
        index.queries().perSecond(),
        index.openNanos() / 1e6,
        engine.cacheStats(),
        engine.recoveries().stream().mapToLong(RtRecovery::operationsReplayed).sum());
  }
}
