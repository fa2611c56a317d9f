package org.lucenenvm.realtime;

/** What survives a restart (SPIRIT §4.3). */
public enum DurabilityMode {
  /**
   * Nothing: opening discards any segments left in the NVM directory; close discards them too. A
   * directory that holds a graceful engine's manifest is refused, never discarded.
   */
  VOLATILE,
  /**
   * A graceful {@code close()} flushes and engraves every document and writes a manifest; the next
   * open restores the index from NVM without re-indexing. After a crash the index is refused; after
   * a close that could not persist everything (NVM full) it is refused naming the missing
   * documents, until {@link RtEngine#acceptIncomplete} accepts the loss.
   */
  GRACEFUL
}
