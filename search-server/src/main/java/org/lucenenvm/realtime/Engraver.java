package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * Pipeline stage 2: copies a flushed segment's DRAM files into the NVM tier in bulk and persists
 * them. Queries keep reading the DRAM copy (the pointer moves in the {@link Committer}). A segment
 * the NVM tier has no room for waits, readable in DRAM, until room is freed ({@link
 * NvmSpace#untilRoom}): a full pool never fails the pipeline.
 */
final class Engraver {
  private final Tiers tiers;
  private final Runnable onWait;
  private final BooleanSupplier stop;

  /**
   * An engraver into {@code tiers}; while a segment waits for room it runs {@code onWait} before
   * each wait, and it gives up once {@code stop} is true.
   */
  Engraver(Tiers tiers, Runnable onWait, BooleanSupplier stop) {
    this.tiers = tiers;
    this.onWait = onWait;
    this.stop = stop;
  }

  /**
   * Engraves {@code d} unless it is in NVM already (or was merged away meanwhile), waiting while
   * the NVM tier has no room for it. Returns false when the wait was given up because the pipeline
   * stops ({@code d} is then still DRAM-only).
   */
  boolean engrave(SegmentDescriptor d) throws IOException {
    return tiers.space().untilRoom(() -> engraveNow(d), onWait, stop);
  }

  /**
   * Engraves {@code d} unless it is in NVM already (or was merged away meanwhile), in one attempt:
   * throws {@link NvmFullException} when the NVM tier has no room for it.
   */
  void engraveNow(SegmentDescriptor d) throws IOException {
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
