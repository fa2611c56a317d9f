package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The global descriptor table (SPIRIT's GDT) of one partition: the ordered list of segments
 * queries see, with a version number that moves on every change queries must notice (a segment
 * added or replaced, a pointer switched between tiers, deletions in a Lucene segment). The list is
 * immutable and replaced as a whole (copy on write).
 *
 * <p>For each version the table builds one {@link TableView} on first use and shares it among all
 * queries of that version; a query then binds only the live segments' published documents. An
 * update (delete of the old document + add of the new one) runs inside {@link #beginWrite} /
 * {@link #endWrite} (a seqlock) so a query sees all of it or none of it; plain adds and deletes are
 * single atomic publications and need no seqlock.
 */
final class DescriptorTable {
  private volatile List<SegmentDescriptor> segments = List.of();
  private final AtomicLong version = new AtomicLong();
  /** Write sequence number, odd while an update is being applied (a seqlock). */
  private final AtomicLong writes = new AtomicLong();
  private final AtomicReference<TableView> current = new AtomicReference<>();
  private final Object buildLock = new Object();
  private volatile boolean closed;
  private volatile StatisticsEpoch epoch = new StatisticsEpoch(0, null);

  /** The current segments, oldest first. */
  List<SegmentDescriptor> segments() {
    return segments;
  }

  /** The current version. */
  long version() {
    return version.get();
  }

  /**
   * Starts the statistics epoch with the next view: leaving out up to {@code lagSegments} new
   * segments, and restored to the one in force at a graceful close ({@code restored}, may be null)
   * if its segments still exist. Call before the first query.
   */
  void startEpoch(int lagSegments, long[] restored) {
    epoch = new StatisticsEpoch(lagSegments, restored);
    releaseView();
  }

  /** The ids of the current statistics epoch's segments. */
  long[] epochMembers() {
    return epoch.members();
  }

  synchronized void add(SegmentDescriptor descriptor) {
    List<SegmentDescriptor> next = new ArrayList<>(segments);
    next.add(descriptor);
    segments = List.copyOf(next);
    changed();
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
    changed();
  }

  /**
   * Records a change queries must see (a pointer switch, deletions in a Lucene segment): the next
   * query builds a new view, and the shared view of the old version lets go of its segment versions
   * as soon as its last query ends (so a DRAM copy replaced by its NVM copy is freed promptly).
   */
  void changed() {
    version.incrementAndGet();
    releaseView();
  }

  /** Marks the start of an update (under the partition's write lock). */
  void beginWrite() {
    writes.incrementAndGet();
  }

  /** Marks the end of the update begun by {@link #beginWrite}. */
  void endWrite() {
    writes.incrementAndGet();
  }

  /**
   * Binds a consistent snapshot of this table: the shared view of the current version (referenced
   * for the caller) and the live tail at this instant. Never takes the writers' lock: a snapshot
   * that overlaps an update or a table change is simply retried.
   */
  TableView.Bound bind() throws IOException {
    while (true) {
      if (closed) {
        throw new IllegalStateException("engine is closed");
      }
      long seq = writes.get();
      if ((seq & 1) != 0) {
        Thread.onSpinWait();
        continue;
      }
      TableView view = acquireView();
      TableView.Bound bound = null;
      try {
        bound = view.bind();
      } finally {
        if (bound == null) {
          view.release();
        }
      }
      if (writes.get() == seq && version.get() == view.version()) {
        return bound;
      }
      bound.close();
    }
  }

  /** The shared view of the current version, referenced for the caller. */
  private TableView acquireView() throws IOException {
    while (true) {
      if (closed) {
        throw new IllegalStateException("engine is closed");
      }
      long v = version.get();
      TableView view = current.get();
      if (view != null && view.version() == v && view.tryIncRef()) {
        return view;
      }
      synchronized (buildLock) {
        view = current.get();
        if (view != null && view.version() == version.get()) {
          continue;
        }
        TableView built = TableView.build(v, segments, epoch);
        if (built == null) {
          continue; // a segment was merged away meanwhile: the table has moved on
        }
        built.tryIncRef(); // the caller's reference; the build's own belongs to `current`
        TableView old = current.getAndSet(built);
        if (old != null) {
          old.release();
        }
        if (version.get() != v && current.compareAndSet(built, null)) {
          built.release(); // the table moved during the build: do not keep a stale view alive
        }
        return built;
      }
    }
  }

  /** Refuses snapshots from now on (the segments are being retired) and drops the shared view. */
  void close() {
    closed = true;
    releaseView();
  }

  /** Drops the table's reference to the shared view (on a change). */
  void releaseView() {
    TableView old = current.getAndSet(null);
    if (old != null) {
      try {
        old.release();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot free a replaced segment version", e);
      }
    }
  }
}
