package org.lucenenvm.realtime;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A partition's {@link DescriptorTable} as its pipeline stages change it: the narrow interface
 * {@link Partition} hands to {@link Pipeline}, {@link Merger}, {@link Flusher} and {@link
 * Committer} instead of its table, its write lock and its segment-id counter (as Lucene's merge
 * scheduler sees {@code IndexWriter} only through {@code MergeScheduler.MergeSource}). Reads are
 * lock-free; a change writers must not interleave with (a merge swapped in) is made here under the
 * partition's write lock, which no stage takes itself.
 *
 * <p>It also owns the segment-id counter and the condition writers waiting for a segment slot wait
 * on ({@link #awaitSegmentRoom}, the partition's), which every change that may free a slot
 * signals.
 */
final class PartitionTable {
  private final DescriptorTable table;
  private final ReentrantLock writeLock;
  private final Condition segmentRoom;
  private final AtomicLong nextSegmentId;

  /**
   * The pipeline's view of {@code table}, whose writers hold {@code writeLock}; segment ids start
   * at {@code nextSegmentId}.
   */
  PartitionTable(DescriptorTable table, ReentrantLock writeLock, long nextSegmentId) {
    this.table = table;
    this.writeLock = writeLock;
    this.segmentRoom = writeLock.newCondition();
    this.nextSegmentId = new AtomicLong(nextSegmentId);
  }

  /** The current segments, oldest first (an immutable list). */
  List<SegmentDescriptor> segments() {
    return table.segments();
  }

  /** Records a change queries must see: a flush, a pointer switched to the NVM copy. */
  void changed() {
    table.changed();
  }

  /** An id no segment of the partition had before. */
  long newSegmentId() {
    return nextSegmentId.getAndIncrement();
  }

  /** The id the next segment gets (recorded in the manifest). */
  long nextSegmentId() {
    return nextSegmentId.get();
  }

  /**
   * Replaces {@code sources} (in table order) by {@code merged}, which first takes the deletions
   * {@code carriedDeletions} gives: both under the write lock, so no delete reaches a source
   * between the two and none is lost. Then wakes the writers waiting for a segment slot. The
   * caller records the new table and retires the sources afterwards.
   */
  void replace(
      List<SegmentDescriptor> sources,
      SegmentDescriptor merged,
      Supplier<DeletedDocs> carriedDeletions) {
    writeLock.lock();
    try {
      merged.setDeletions(carriedDeletions.get());
      table.replace(sources, merged);
      segmentRoom.signalAll();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Removes {@code sources}, whose documents are all deleted, and wakes the writers waiting for a
   * segment slot; the caller retires them afterwards.
   */
  void remove(List<SegmentDescriptor> sources) {
    writeLock.lock();
    try {
      table.replace(sources, null);
      segmentRoom.signalAll();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Wakes the writers waiting for a segment slot: whether a writer may exceed the segment limit
   * changed (a merge was refused, the pipeline failed or stops).
   */
  void segmentRoomChanged() {
    writeLock.lock();
    try {
      segmentRoom.signalAll();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Releases the write lock, held by the caller, until a change may have freed a segment slot or
   * {@code millis} passed, and takes it again.
   */
  void awaitSegmentRoom(long millis) throws InterruptedException {
    segmentRoom.await(millis, TimeUnit.MILLISECONDS);
  }
}
