package org.lucenenvm.realtime;

/**
 * When a flushed segment is copied to NVM (engraved) and when queries switch to that copy
 * (committed), per SPIRIT §4.7.
 */
public enum PipelinePolicy {
  /**
   * Engrave as soon as flushed; switch queries to NVM only when DRAM exceeds its budget (default).
   */
  EAGER_ENGRAVE_LAZY_POINTER(true, false),
  /** Engrave as soon as flushed and switch queries to NVM at once: short-lived DRAM copies. */
  EAGER_ENGRAVE_EAGER_POINTER(true, true),
  /**
   * Engrave only when DRAM exceeds its budget (or at graceful shutdown), then switch at once. (A
   * merge the segment limit requires still writes its output to NVM.)
   */
  LAZY_ENGRAVE_LAZY_POINTER(false, false);

  private final boolean eagerEngrave;
  private final boolean eagerPointer;

  PipelinePolicy(boolean eagerEngrave, boolean eagerPointer) {
    this.eagerEngrave = eagerEngrave;
    this.eagerPointer = eagerPointer;
  }

  /** Whether the engraver copies each segment to NVM right after the flush. */
  public boolean eagerEngrave() {
    return eagerEngrave;
  }

  /** Whether queries switch to the NVM copy right after engraving. */
  public boolean eagerPointer() {
    return eagerPointer;
  }
}
