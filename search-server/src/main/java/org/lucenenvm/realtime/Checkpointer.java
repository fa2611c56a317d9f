package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;
import org.apache.lucene.store.Directory;

/**
 * The {@link Pipeline.Checkpoint} of a crash-consistent partition: writes the {@link
 * Manifest.Status#LOGGED} manifest (crash-safely) and then reclaims the ingest log up to its
 * DurableSequence.
 *
 * <p>Why the durable segments hold a prefix of the operations: a live segment is frozen (and its
 * {@link SegmentDescriptor#lastSequence} set) under the write lock, after every earlier operation
 * was applied; the indexer engraves frozen segments one at a time in freezing order, and merges
 * take only engraved segments. So at any moment the segments with an NVM copy hold every operation
 * up to the largest lastSequence among them (deletes included: those are in the deletions, read
 * under the write lock), and no operation of a segment without one. That largest lastSequence is
 * the DurableSequence; it never decreases (a merge that drops fully deleted segments lowers the
 * largest lastSequence in the table, not what is durable).
 *
 * <p>When no segment without an NVM copy holds a document (the live segment is empty: the
 * operations since the last freeze were deletes, e.g. a stream of deletes alone), the listed
 * segments and their deletions hold every operation applied, and DurableSequence is the last one
 * applied. This is how deletes alone reclaim log space: {@link Partition} asks for a checkpoint
 * once they take a share of the log. The last one applied, not the last one written: at recovery
 * the log holds records not replayed yet.
 *
 * <p>The deletions the manifest records may come from operations after DurableSequence (an
 * update's delete half, a delete), applied when the snapshot is taken. Before the manifest is
 * written the log is made durable up to the last operation applied then, so every such deletion
 * is backed by a durable record that recovery replays (idempotently): otherwise a power failure
 * could keep the delete half of an unacknowledged update and lose the record of its add half,
 * and with it the acknowledged old version.
 */
final class Checkpointer implements Pipeline.Checkpoint {
  private final Directory nvm;
  private final IngestLog log;
  private final DescriptorTable table;
  private final Lock writeLock;
  private final LongSupplier lastApplied;
  private final AtomicLong nextSegmentId;
  /** Guarded by this. */
  private long durableSequence;

  /**
   * A checkpointer of the partition whose table is {@code table}; {@code lastApplied} gives the
   * sequence number of the last operation the partition applied (read under {@code writeLock});
   * {@code durableSequence} is the one the manifest found at open recorded.
   */
  Checkpointer(
      Directory nvm,
      IngestLog log,
      DescriptorTable table,
      Lock writeLock,
      LongSupplier lastApplied,
      AtomicLong nextSegmentId,
      long durableSequence) {
    this.nvm = nvm;
    this.log = log;
    this.table = table;
    this.writeLock = writeLock;
    this.lastApplied = lastApplied;
    this.nextSegmentId = nextSegmentId;
    this.durableSequence = durableSequence;
  }

  @Override
  public synchronized void record() throws IOException {
    List<Manifest.Segment> segments = new ArrayList<>();
    long nextId;
    long applied;
    writeLock.lock();
    try {
      boolean allDocumentsDurable = true;
      for (SegmentDescriptor d : table.segments()) {
        SegmentVersion nvmVersion = d.nvm();
        if (nvmVersion != null && !d.retired()) {
          segments.add(
              new Manifest.Segment(
                  d.id(), d.level(), stateOf(d), nvmVersion.maxDoc(), d.deletions()));
          durableSequence = Math.max(durableSequence, d.lastSequence());
        } else if (!d.retired() && !(d.isLive() && d.global().liveSegment().published() == 0)) {
          allDocumentsDurable = false;
        }
      }
      if (allDocumentsDurable) {
        // Every document is in a listed segment and every delete in its deletions (the operations
        // since the last freeze are deletes only): the manifest holds every applied operation.
        durableSequence = Math.max(durableSequence, lastApplied.getAsLong());
      }
      nextId = nextSegmentId.get();
      applied = log.lastWritten(); // writes log and apply under the write lock
    } finally {
      writeLock.unlock();
    }
    // Writers persist after releasing the lock: make every applied operation durable first.
    log.awaitDurable(applied);
    Manifest.logged(nextId, segments, durableSequence).write(nvm);
    if (durableSequence >= log.firstSequence()) {
      log.truncate(durableSequence);
    }
  }

  private static SegmentState stateOf(SegmentDescriptor d) {
    return d.state() == SegmentState.MERGED ? SegmentState.MERGED : SegmentState.COMMITTED;
  }

  /** The DurableSequence of the last manifest written. */
  synchronized long durableSequence() {
    return durableSequence;
  }
}
