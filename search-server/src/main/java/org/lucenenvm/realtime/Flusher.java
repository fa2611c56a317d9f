package org.lucenenvm.realtime;

import java.io.IOException;

/**
 * Pipeline stage 1: turns a full live segment into a read-optimized Lucene segment in the DRAM
 * tier and switches queries to it. The segment is encoded once, in its final codec.
 */
final class Flusher {
  private final Tiers tiers;
  private final PartitionTable table;

  Flusher(Tiers tiers, PartitionTable table) {
    this.tiers = tiers;
    this.table = table;
  }

  /** Flushes {@code d}, which queries read as a live segment until this returns. */
  void flush(SegmentDescriptor d) throws IOException {
    SegmentVersion version = tiers.flushToDram(d.id(), d.global().liveSegment());
    try {
      d.setIdFilter(IdFilter.of(version.segment()));
    } catch (IOException | RuntimeException e) {
      version.decRef();
      throw e;
    }
    d.flushed(version);
    table.changed();
  }
}
