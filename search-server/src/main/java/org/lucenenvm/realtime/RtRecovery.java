package org.lucenenvm.realtime;

import java.util.concurrent.TimeUnit;

/**
 * What opening one partition found and did, for operators: the manifest it found, the segments it
 * restored and the unlisted ones it deleted, and in {@link DurabilityMode#CRASH_CONSISTENT} mode
 * the ingest log operations it replayed.
 *
 * @param partition partition number
 * @param mode the engine's durability mode
 * @param manifest status of the manifest found ("none" when there was none)
 * @param segmentsOpened segments restored from the manifest
 * @param segmentsDropped segments with files in the NVM directory that no manifest listed
 *     (engraves or merges a crash interrupted, or a volatile engine's), deleted
 * @param durableSequence the manifest's DurableSequence: operations up to it were in the segments
 * @param operationsReplayed ingest log operations after it applied again
 * @param tornTail the ingest log's torn tail (a record in flight at the crash, never
 *     acknowledged), or null
 * @param nanos time the open took
 */
public record RtRecovery(
    int partition,
    DurabilityMode mode,
    String manifest,
    int segmentsOpened,
    int segmentsDropped,
    long durableSequence,
    long operationsReplayed,
    String tornTail,
    long nanos) {

  /** One line for a log. */
  public String describe() {
    return "partition "
        + partition
        + " ("
        + mode
        + "): manifest "
        + manifest
        + ", "
        + segmentsOpened
        + " segments opened, "
        + segmentsDropped
        + " unlisted segments dropped, "
        + operationsReplayed
        + " operations replayed after #"
        + durableSequence
        + ", "
        + TimeUnit.NANOSECONDS.toMillis(nanos)
        + " ms"
        + (tornTail == null ? "" : "; " + tornTail);
  }
}
