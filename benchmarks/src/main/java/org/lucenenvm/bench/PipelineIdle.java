package org.lucenenvm.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineStats;
import org.lucenenvm.realtime.SegmentState;

/**
 * Waits until a real-time engine's pipeline is idle, so that a static measurement sees segments
 * (and the statistics epoch) that no longer change: every full live segment flushed (at most one
 * live segment per partition left), nothing queued at any stage, and the segments unchanged for
 * {@value #SETTLED_POLLS} polls {@value #POLL_MILLIS} ms apart.
 */
final class PipelineIdle {
  private static final long POLL_MILLIS = 50;
  private static final int SETTLED_POLLS = 3;
  private static final long TIMEOUT_MINUTES = 10;

  private PipelineIdle() {}

  /** Returns once {@code engine}'s pipeline is idle; an error after {@value #TIMEOUT_MINUTES} minutes. */
  static void await(RtEngine engine) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
    Object last = null;
    int unchanged = 0;
    while (unchanged < SETTLED_POLLS) {
      RtEngineStats stats = engine.stats();
      boolean idle = stats.segments().getOrDefault(SegmentState.INGESTED, 0) <= engine.partitionCount()
          && stats.stages().values().stream().allMatch(stage -> stage.queued() == 0);
      Object now = List.of(stats.segmentCount(), stats.segments());
      unchanged = idle && now.equals(last) ? unchanged + 1 : 0;
      last = now;
      if (System.nanoTime() > deadline) {
        throw new IOException("the engine's pipeline did not settle in " + TIMEOUT_MINUTES + " minutes: " + stats);
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the engine's pipeline to settle", e);
      }
    }
  }
}
