package org.lucenenvm.realtime;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A point-in-time account of an engine (or of one of its partitions).
 *
 * @param liveDocs documents visible and not deleted
 * @param segmentCount segments in the descriptor tables (live ones included)
 * @param maxSegmentsPerPartition the largest segment count of one partition's table
 * @param segments number of segments per state
 * @param dramBytes bytes of read-optimized segment copies held in DRAM (including copies a query
 *     still holds after commit)
 * @param peakDramBytes the largest {@code dramBytes} seen since open (summed over partitions); the
 *     indexer waits while DRAM is over budget, so this stays within {@code dramBudgetBytes +
 *     largestDramSegmentBytes} per partition
 * @param largestDramSegmentBytes the largest single DRAM segment copy seen since open
 * @param liveSegmentBytes approximate bytes of live segments (the active one and frozen ones
 *     waiting for their flush)
 * @param nvmBytes bytes of segment files in the NVM directory
 * @param segmentWaitNanos time writers spent waiting for a free segment slot (the merger keeping
 *     the table within its segment limit), summed over writers and partitions since open
 * @param mergesDeferred merge attempts deferred since open because the NVM budget or pool had no
 *     room for their output (tried again on a later pass)
 * @param stages per pipeline thread (indexer, merger): busy time, items, queue length
 */
public record RtEngineStats(
    long liveDocs,
    int segmentCount,
    int maxSegmentsPerPartition,
    Map<SegmentState, Integer> segments,
    long dramBytes,
    long peakDramBytes,
    long largestDramSegmentBytes,
    long liveSegmentBytes,
    long nvmBytes,
    long segmentWaitNanos,
    long mergesDeferred,
    Map<String, Stage> stages) {

  /**
   * Work of one pipeline thread.
   *
   * @param busyNanos time spent handling items
   * @param items items handled
   * @param queued items waiting
   */
  public record Stage(long busyNanos, long items, int queued) {
    Stage plus(Stage o) {
      return new Stage(busyNanos + o.busyNanos, items + o.items, queued + o.queued);
    }
  }

  /** The stats of several partitions as those of one engine. */
  static RtEngineStats sum(List<RtEngineStats> partitions) {
    long docs = 0;
    int segmentCount = 0;
    int maxSegments = 0;
    long dram = 0;
    long peak = 0;
    long largest = 0;
    long live = 0;
    long nvm = 0;
    long segmentWait = 0;
    long deferred = 0;
    Map<String, Stage> stages = new LinkedHashMap<>();
    for (RtEngineStats s : partitions) {
      docs += s.liveDocs;
      segmentCount += s.segmentCount;
      maxSegments = Math.max(maxSegments, s.maxSegmentsPerPartition);
      dram += s.dramBytes;
      peak += s.peakDramBytes;
      largest = Math.max(largest, s.largestDramSegmentBytes);
      live += s.liveSegmentBytes;
      nvm += s.nvmBytes;
      segmentWait += s.segmentWaitNanos;
      deferred += s.mergesDeferred;
      s.stages.forEach((name, stage) -> stages.merge(name, stage, Stage::plus));
    }
    return new RtEngineStats(
        docs,
        segmentCount,
        maxSegments,
        sumStates(partitions),
        dram,
        peak,
        largest,
        live,
        nvm,
        segmentWait,
        deferred,
        stages);
  }

  private static Map<SegmentState, Integer> sumStates(List<RtEngineStats> partitions) {
    Map<SegmentState, Integer> states = new EnumMap<>(SegmentState.class);
    for (RtEngineStats s : partitions) {
      s.segments().forEach((state, n) -> states.merge(state, n, Integer::sum));
    }
    return states;
  }
}
