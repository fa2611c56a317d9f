package org.lucenenvm.realtime;

import static org.junit.Assert.fail;

import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Bounded waits for an engine's background pipeline, for tests: each polls {@link
 * RtEngine#stats()} and fails the test with the last stats if the state is not reached within a
 * minute.
 */
final class PipelineWaits {
  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

  private PipelineWaits() {}

  /** Waits until {@code done} holds for the engine's stats, and returns those stats. */
  static RtEngineStats until(RtEngine engine, Predicate<RtEngineStats> done) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    RtEngineStats stats = engine.stats();
    while (!done.test(stats)) {
      if (System.nanoTime() > deadline) {
        fail("pipeline never reached the expected state: " + stats);
      }
      Thread.sleep(10);
      stats = engine.stats();
    }
    return stats;
  }

  /** Waits until the engine holds at least {@code count} Lucene (flushed, not live) segments. */
  static void luceneSegments(RtEngine engine, int count) throws Exception {
    until(engine, stats -> luceneSegments(stats) >= count);
  }

  /**
   * Waits until every full segment of the documents {@code doc0 .. doc<docs-1>}, added in that
   * order to an engine of {@code segmentSize}-document segments, is flushed (a Lucene segment),
   * so that the statistics epoch holds still.
   */
  static void flushed(RtEngine engine, int docs, int segmentSize) throws Exception {
    int[] perPartition = new int[engine.partitionCount()];
    for (int i = 0; i < docs; i++) {
      perPartition[engine.partitionOf("doc" + i)]++;
    }
    int full = 0;
    for (int n : perPartition) {
      full += n / segmentSize;
    }
    luceneSegments(engine, full);
  }

  /**
   * Waits until every segment but the live one has its NVM copy recorded in the manifest (eager
   * engrave: none is left {@link SegmentState#FLUSHED}), no stage has work queued or under way (an
   * engrave's checkpoint, a merge), and the segment table stayed so for three polls 50 ms apart.
   */
  static void durable(RtEngine engine) throws Exception {
    durable(engine, 50);
  }

  /** As {@link #durable(RtEngine)}, polling every {@code pollMillis} ms. */
  static void durable(RtEngine engine, long pollMillis) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    Object last = null;
    for (int settled = 0; settled < 3; ) {
      RtEngineStats stats = engine.stats();
      boolean durable =
          stats.segments().getOrDefault(SegmentState.INGESTED, 0) <= 1
              && stats.segments().getOrDefault(SegmentState.FLUSHED, 0) == 0
              && stats.stages().values().stream().allMatch(stage -> stage.queued() == 0)
              && engine.pipelineActivity().equals("idle");
      Object now = stats.segments();
      settled = durable && now.equals(last) ? settled + 1 : 0;
      last = now;
      if (System.nanoTime() > deadline) {
        fail("pipeline never settled: " + stats);
      }
      Thread.sleep(pollMillis);
    }
  }

  private static int luceneSegments(RtEngineStats stats) {
    return stats.segments().entrySet().stream()
        .filter(e -> e.getKey() != SegmentState.INGESTED)
        .mapToInt(e -> e.getValue())
        .sum();
  }
}
