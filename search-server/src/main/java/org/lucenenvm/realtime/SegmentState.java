package org.lucenenvm.realtime;

/** Life-cycle state of a segment in the {@link DescriptorTable} (SPIRIT §4.4). */
public enum SegmentState {
  /** Write-optimized live segment in DRAM; queries read it directly. */
  INGESTED,
  /** Read-optimized Lucene segment in the DRAM tier; not yet in NVM. */
  FLUSHED,
  /** Copied to NVM and synced, but queries still read the DRAM copy. */
  ENGRAVED,
  /** Queries read the NVM copy; the DRAM copy is released. */
  COMMITTED,
  /** Produced by merging committed segments; lives in NVM only. */
  MERGED
}
