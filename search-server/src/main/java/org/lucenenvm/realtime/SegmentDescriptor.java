package org.lucenenvm.realtime;

import java.io.IOException;

/**
 * One entry of the {@link DescriptorTable} (SPIRIT's GDT entry): the global pointer queries follow
 * (the live, DRAM or NVM version), the NVM pointer once the segment is engraved, the state, and the
 * segment's deletions. Doc ids are the same in every version of a segment, so deletions live here,
 * not in a version.
 *
 * <p>Pointer changes happen in the pipeline threads; deletions change under the engine's write
 * lock. A replaced version is released after the new pointer is published, so a query that fails to
 * reference the old version finds the new one on its next read.
 */
final class SegmentDescriptor {
  private final long id;
  private final int level;
  private final int capacity;
  private volatile SegmentVersion global;
  private volatile SegmentVersion dram;
  private volatile SegmentVersion nvm;
  private volatile SegmentState state;
  private volatile DeletedDocs deletions;
  private volatile boolean retired;
  private volatile IdFilter idFilter;
  private volatile long lastSequence;

  SegmentDescriptor(long id, int level, int capacity, SegmentVersion global, SegmentState state) {
    this.id = id;
    this.level = level;
    this.capacity = capacity;
    this.global = global;
    this.state = state;
    if (global.tier() == SegmentVersion.Tier.NVM) {
      this.nvm = global;
    }
  }

  /** Segment id, unique and increasing over the engine's life (survives restarts). */
  long id() {
    return id;
  }

  /** 0 for flushed segments, 1 + max source level for merged ones. */
  int level() {
    return level;
  }

  /** Docs the deletion bits cover (live segment capacity, else maxDoc). */
  int capacity() {
    return capacity;
  }

  SegmentState state() {
    return state;
  }

  SegmentVersion global() {
    return global;
  }

  SegmentVersion dram() {
    return dram;
  }

  SegmentVersion nvm() {
    return nvm;
  }

  DeletedDocs deletions() {
    return deletions;
  }

  /**
   * References the version queries should read, or returns null when the segment has been merged
   * away (the caller then re-reads the table).
   */
  SegmentVersion acquire() {
    while (true) {
      SegmentVersion v = global;
      if (v.tryIncRef()) {
        return v;
      }
      if (retired) {
        return null;
      }
      Thread.onSpinWait();
    }
  }

  /** The Bloom filter over this segment's ids, or null while it is a live segment. */
  IdFilter idFilter() {
    return idFilter;
  }

  /** Sets the id filter (once the segment's documents are final). */
  void setIdFilter(IdFilter filter) {
    this.idFilter = filter;
  }

  /** Flush done: queries move from the live segment to the DRAM copy. */
  synchronized void flushed(SegmentVersion dramVersion) throws IOException {
    if (retired) {
      dramVersion.decRef();
      return;
    }
    SegmentVersion old = global;
    dram = dramVersion;
    global = dramVersion;
    state = SegmentState.FLUSHED;
    old.decRef();
  }

  /** Engrave done: the NVM copy exists; queries keep reading DRAM (lazy pointer update). */
  synchronized void engraved(SegmentVersion nvmVersion) throws IOException {
    if (retired) {
      nvmVersion.decRef();
      return;
    }
    nvm = nvmVersion;
    state = SegmentState.ENGRAVED;
  }

  /** Commit: queries move to the NVM copy and the table's reference to the DRAM copy is dropped. */
  synchronized void committed() throws IOException {
    if (retired) {
      return;
    }
    if (nvm == null) {
      throw new IllegalStateException("segment " + id + " cannot commit before it is engraved");
    }
    SegmentVersion old = dram;
    global = nvm;
    dram = null;
    state = SegmentState.COMMITTED;
    if (old != null) {
      old.decRef();
    }
  }

  /**
   * The ingest log sequence number of the last operation applied while this segment took adds
   * (crash-consistent mode; merged: the largest of its sources'); 0 when unknown (restored
   * segments, other modes).
   */
  long lastSequence() {
    return lastSequence;
  }

  /** Sets {@link #lastSequence} (when the live segment is frozen, or a merge creates it). */
  void setLastSequence(long sequence) {
    this.lastSequence = sequence;
  }

  /** Whether the segment was merged away or the engine closed (its versions are released). */
  boolean retired() {
    return retired;
  }

  /** Whether queries read the live segment (not flushed yet). */
  boolean isLive() {
    return global.tier() == SegmentVersion.Tier.LIVE;
  }

  /** Replaces the deletions (engine write lock held). */
  void setDeletions(DeletedDocs deletions) {
    this.deletions = deletions;
  }

  /** Removes this segment from service and drops the table's references to its versions. */
  synchronized void retire() throws IOException {
    retired = true;
    SegmentVersion g = global;
    SegmentVersion d = dram;
    SegmentVersion n = nvm;
    dram = null;
    nvm = null;
    IOException failure = null;
    SegmentVersion[] distinct = {g, d != g ? d : null, n != g && n != d ? n : null};
    for (SegmentVersion v : distinct) {
      if (v != null) {
        try {
          v.decRef();
        } catch (IOException e) {
          failure = e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
