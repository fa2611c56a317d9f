package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.similarities.Similarity;

/**
 * The global descriptor table (SPIRIT's GDT): the ordered list of segments queries see. The list
 * is immutable and replaced as a whole (copy on write), so a query reads it with one volatile load;
 * {@link #acquire} then references each segment's current version. Building a snapshot allocates
 * objects and does nothing else: no I/O, no refresh, and normally no lock (see {@link #acquire}).
 */
final class DescriptorTable {
  private static final int OPTIMISTIC_ATTEMPTS = 32;

  private final Lock writeLock;
  private volatile List<SegmentDescriptor> segments = List.of();
  /** Write sequence number, odd while a write is being applied (a seqlock). */
  private volatile long writes;

  /** A table whose writes are serialized by {@code writeLock}. */
  DescriptorTable(Lock writeLock) {
    this.writeLock = writeLock;
  }

  /** The current segments, oldest first. */
  List<SegmentDescriptor> segments() {
    return segments;
  }

  synchronized void add(SegmentDescriptor descriptor) {
    List<SegmentDescriptor> next = new ArrayList<>(segments);
    next.add(descriptor);
    segments = List.copyOf(next);
  }

  /**
   * Replaces {@code sources} by {@code merged} (at the position of the first source), or just
   * removes them when {@code merged} is null; the caller retires the sources afterwards.
   */
  synchronized void replace(List<SegmentDescriptor> sources, SegmentDescriptor merged) {
    List<SegmentDescriptor> next = new ArrayList<>(segments.size());
    boolean inserted = false;
    for (SegmentDescriptor d : segments) {
      if (sources.contains(d)) {
        if (!inserted && merged != null) {
          next.add(merged);
        }
        inserted = true;
      } else {
        next.add(d);
      }
    }
    if (!inserted) {
      throw new IllegalStateException("merge sources are not in the table");
    }
    segments = List.copyOf(next);
  }

  /**
   * Marks the start of a write (delete and/or add) applied under the engine's write lock; a
   * snapshot taken while a write is in progress, or across one, is retried, so every snapshot is a
   * consistent cut: an update (delete + add) is seen entirely or not at all.
   */
  void beginWrite() {
    writes++;
  }

  /** Marks the end of the write begun by {@link #beginWrite}. */
  void endWrite() {
    writes++;
  }

  /**
   * A point-in-time reader over every segment; the caller must close it. Optimistic (no lock) as
   * long as writes do not keep overlapping it; after {@value #OPTIMISTIC_ATTEMPTS} overlapped
   * attempts it takes the engine's write lock, which no writer holds across a blocking call.
   */
  RtSnapshot acquire(Similarity similarity) throws IOException {
    for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      long before = writes;
      if ((before & 1) != 0) {
        Thread.onSpinWait();
        continue;
      }
      RtSnapshot snapshot = tryAcquire(similarity, before);
      if (snapshot != null) {
        return snapshot;
      }
    }
    writeLock.lock();
    try {
      while (true) {
        RtSnapshot snapshot = tryAcquire(similarity, writes);
        if (snapshot != null) {
          return snapshot;
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Takes a snapshot unless a segment was merged away meanwhile or the write sequence moved from
   * {@code before}; returns null then (nothing held).
   */
  private RtSnapshot tryAcquire(Similarity similarity, long before) throws IOException {
    List<SegmentDescriptor> current = segments;
    List<SegmentVersion> held = new ArrayList<>(current.size());
    List<LeafReader> leaves = new ArrayList<>(current.size());
    for (SegmentDescriptor d : current) {
      DeletedDocs deletions = d.deletions();
      SegmentVersion v = d.acquire();
      if (v == null) {
        RtSnapshot.release(held);
        return null;
      }
      held.add(v);
      LeafReader view = d.view(v, deletions);
      if (view.maxDoc() > 0) {
        leaves.add(view);
      }
    }
    if (writes != before) {
      RtSnapshot.release(held);
      return null;
    }
    return new RtSnapshot(leaves, held, similarity);
  }
}
