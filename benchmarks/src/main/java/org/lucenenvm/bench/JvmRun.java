package org.lucenenvm.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * One child JVM of {@code compare}: its place in the run order, its side, where its output is, the
 * machine's load when it started and ended, its wall time, the rows it measured and (NC) the hits it
 * returned.
 *
 * @param number 1-based position in the run order
 * @param side {@link JvmSchedule#BASELINE} or {@link JvmSchedule#CANDIDATE}
 * @param spec the side's spec
 * @param dir the JVM's output directory
 * @param loadAtStart load averages just before it started
 * @param loadAtEnd load averages just after it ended
 * @param seconds wall time from start to end
 * @param rows the rows of its {@code results.csv}
 * @param hits its top-k hits, {@code null} for a WRT side
 */
record JvmRun(int number, int side, String spec, Path dir, MachineLoad loadAtStart, MachineLoad loadAtEnd, double seconds, List<ResultRow> rows, HitIdentities hits) {

  /** The measured {@value ResultRow#ALL} row, or {@code null} if there is none. */
  ResultRow allRow() {
    return rows.stream().filter(r -> r.measured() && r.category().equals(ResultRow.ALL)).findFirst().orElse(null);
  }

  /** How this JVM's paced ingest went, or {@code null} if it was not paced (or NC). */
  IngestPace ingestPace() {
    ResultRow all = allRow();
    return all == null ? null : all.ingestPace();
  }

  /** {@code baseline} or {@code candidate}. */
  String sideName() {
    return side == JvmSchedule.BASELINE ? "baseline" : "candidate";
  }
}
