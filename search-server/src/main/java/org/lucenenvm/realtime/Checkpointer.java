package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
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
  /**
   * What a checkpoint records, read by the partition under its write lock (so every deletion is
   * of an operation applied by {@code lastWritten}).
   *
   * @param segments the non-retired segments with an NVM copy, with their deletions, oldest first
   * @param lastSequence the largest {@link SegmentDescriptor#lastSequence} among them
   * @param allDocumentsListed whether no other segment holds a document (the live segment is empty)
   * @param lastApplied the sequence number of the last operation the partition applied
   * @param nextSegmentId the partition's next segment id
   * @param lastWritten the sequence number of the last record written to the log
   */
  record View(
      List<Manifest.Segment> segments,
      long lastSequence,
      boolean allDocumentsListed,
      long lastApplied,
      long nextSegmentId,
      long lastWritten) {

    /** The view of {@code table} (write lock held). */
    static View of(
        List<SegmentDescriptor> table, long lastApplied, long nextSegmentId, long lastWritten) {
      List<Manifest.Segment> segments = new ArrayList<>();
      long lastSequence = 0;
      boolean allDocumentsListed = true;
      for (SegmentDescriptor d : table) {
        SegmentVersion nvmVersion = d.nvm();
        if (nvmVersion != null && !d.retired()) {
          segments.add(Manifest.Segment.of(d, nvmVersion));
          lastSequence = Math.max(lastSequence, d.lastSequence());
        } else if (!d.retired() && !(d.isLive() && d.global().liveSegment().published() == 0)) {
          allDocumentsListed = false;
        }
      }
      return new View(
          List.copyOf(segments),
          lastSequence,
          allDocumentsListed,
          lastApplied,
          nextSegmentId,
          lastWritten);
    }
  }

  private final Directory nvm;
  private final IngestLog log;
  private final Supplier<View> view;
  /** Guarded by this. */
  private long durableSequence;

  /**
   * A checkpointer that records what {@code view} gives (the partition's table, read under its
   * write lock); {@code durableSequence} is the one the manifest found at open recorded.
   */
  Checkpointer(Directory nvm, IngestLog log, Supplier<View> view, long durableSequence) {
    this.nvm = nvm;
    this.log = log;
    this.view = view;
    this.durableSequence = durableSequence;
  }

  @Override
  public synchronized void record() throws IOException {
    View now = view.get();
    durableSequence = Math.max(durableSequence, now.lastSequence());
    if (now.allDocumentsListed()) {
      // Every document is in a listed segment and every delete in its deletions (the operations
      // since the last freeze are deletes only): the manifest holds every applied operation.
      durableSequence = Math.max(durableSequence, now.lastApplied());
    }
    // Writers persist after releasing the lock: make every applied operation durable first.
    log.awaitDurable(now.lastWritten());
    Manifest.logged(now.nextSegmentId(), now.segments(), durableSequence).write(nvm);
    if (durableSequence >= log.firstSequence()) {
      log.truncate(durableSequence);
    }
  }

  /** The DurableSequence of the last manifest written. */
  synchronized long durableSequence() {
    return durableSequence;
  }
}
