package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
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
  private final AtomicLong nextSegmentId;
  /** Guarded by this. */
  private long durableSequence;

  /**
   * A checkpointer of the partition whose table is {@code table}; {@code durableSequence} is the
   * one the manifest found at open recorded.
   */
  Checkpointer(
      Directory nvm,
      IngestLog log,
      DescriptorTable table,
      Lock writeLock,
      AtomicLong nextSegmentId,
      long durableSequence) {
    this.nvm = nvm;
    this.log = log;
    this.table = table;
    this.writeLock = writeLock;
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
      for (SegmentDescriptor d : table.segments()) {
        SegmentVersion nvmVersion = d.nvm();
        if (nvmVersion != null && !d.retired()) {
          segments.add(
              new Manifest.Segment(
                  d.id(), d.level(), stateOf(d), nvmVersion.maxDoc(), d.deletions()));
          durableSequence = Math.max(durableSequence, d.lastSequence());
        }
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
