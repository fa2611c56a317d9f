package org.lucenenvm.realtime;

/** What survives a restart (SPIRIT §4.3). */
public enum DurabilityMode {
  /**
   * Nothing: opening discards any segments left in the NVM directory; close discards them too. A
   * directory that holds a graceful or crash-consistent engine's manifest is refused, never
   * discarded.
   */
  VOLATILE,
  /**
   * A graceful {@code close()} flushes and engraves every document and writes a manifest; the next
   * open restores the index from NVM without re-indexing. After a crash the index is refused (the
   * message names {@link RtEngine#discardUnverifiable}, which accepts the loss); after a close
   * that could not persist everything (NVM full) it is refused naming the missing documents, until
   * {@link RtEngine#acceptIncomplete} accepts the loss.
   */
  GRACEFUL,
  /**
   * Every acknowledged write survives a crash or power failure. Each write is recorded in an
   * {@link IngestLog} in the NVM pool (a region of the {@link org.lucenenvm.store.NvmDirectory},
   * which this mode requires) and acknowledged only once that record is persisted; concurrent
   * writers share one persist (group commit). Log order is apply order: the record is written
   * under the partition's write lock, right before the write is applied. After every engrave and
   * every merge the partition writes its {@link Manifest} crash-safely ({@link
   * Manifest.Status#LOGGED}: the segments with an NVM copy, their deletions, and DurableSequence,
   * the last operation those segments hold) and reclaims the log up to there. Needs an eager
   * engrave policy: segments reach NVM in the order they were filled, so they always hold a prefix
   * of the operations.
   *
   * <p>Opening after a crash (or a close) opens the manifest's segments, deletes segment files it
   * does not list (engraves and merges a crash interrupted) and replays the log records after
   * DurableSequence through the normal write path; {@link RtEngine#recoveries()} says what it did.
   * Close stops the pipeline after the queued segments are engraved and records the manifest; the
   * operations of the last live segment stay in the log and are replayed at the next open. A
   * write whose apply failed after its record was written (never acknowledged) is an operation in
   * flight, like one a crash interrupts: replay may apply it (if it fails again, the open fails
   * naming the record).
   * Damaged log records that were acknowledged are refused with {@link CorruptIngestLogException},
   * never skipped. A directory left by a crash-consistent engine is refused by the other modes.
   */
  CRASH_CONSISTENT
}
