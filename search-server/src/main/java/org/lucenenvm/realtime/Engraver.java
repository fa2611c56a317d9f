package org.lucenenvm.realtime;

import java.io.IOException;

/**
 * Pipeline stage 2: copies a flushed segment's DRAM files into the NVM tier in bulk and persists
 * them. Queries keep reading the DRAM copy (the pointer moves in the {@link Committer}).
 */
final class Engraver {
  private final Tiers tiers;

  Engraver(Tiers tiers) {
    this.tiers = tiers;
  }

  /** Engraves {@code d} unless it is in NVM already (or was merged away meanwhile). */
  void engrave(SegmentDescriptor d) throws IOException {
    if (d.nvm() != null) {
      return;
    }
    SegmentVersion dram = d.dram();
    if (dram == null || !dram.tryIncRef()) {
      return; // retired: a merge or the engine's close took it
    }
    try {
      d.engraved(tiers.engrave(d.id(), dram));
    } finally {
      dram.decRef();
    }
  }
}
