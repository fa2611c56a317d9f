package org.lucenenvm.realtime;

import java.util.Map;

/**
 * A point-in-time account of an engine.
 *
 * @param liveDocs documents visible and not deleted
 * @param segments number of segments per state
 * @param dramBytes bytes of read-optimized segment copies held in DRAM (including copies a query
 *     still holds after commit)
 * @param peakDramBytes the largest {@code dramBytes} seen since open; the flusher waits while DRAM
 *     is over budget, so this stays within {@code dramBudgetBytes + largestDramSegmentBytes}
 * @param largestDramSegmentBytes the largest single DRAM segment copy seen since open
 * @param liveSegmentBytes approximate bytes of live segments (the active one and frozen ones
 *     waiting for their flush)
 * @param nvmBytes bytes of segment files in the NVM directory
 * @param stages per stage (flusher, engraver, committer, merger): busy time, items, queue length
 */
public record RtEngineStats(
    long liveDocs,
    Map<SegmentState, Integer> segments,
    long dramBytes,
    long peakDramBytes,
    long largestDramSegmentBytes,
    long liveSegmentBytes,
    long nvmBytes,
    Map<String, Stage> stages) {

  /**
   * Work of one pipeline stage.
   *
   * @param busyNanos time spent handling items
   * @param items items handled
   * @param queued items waiting
   */
  public record Stage(long busyNanos, long items, int queued) {}
}
