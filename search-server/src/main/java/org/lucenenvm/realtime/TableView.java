package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.util.IOUtils;

/**
 * The immutable view of one {@link DescriptorTable} version, shared by every query of that
 * version: one {@link MultiReader} over the Lucene segments (DRAM or NVM copies, deletions
 * applied), built once, and the live segments whose published documents each query binds itself.
 * Holds a reference to every segment version it reads (SPIRIT's D-/N-locks) until its own reference
 * count, one for the table plus one per query, drops to zero.
 */
final class TableView {
  private final long version;
  private final MultiReader segments;
  private final List<SegmentDescriptor> liveDescriptors;
  private final List<LiveSegment> liveSegments;
  private final List<SegmentVersion> held;
  private final AtomicInteger refs = new AtomicInteger(1);

  private TableView(
      long version,
      MultiReader segments,
      List<SegmentDescriptor> liveDescriptors,
      List<LiveSegment> liveSegments,
      List<SegmentVersion> held) {
    this.version = version;
    this.segments = segments;
    this.liveDescriptors = liveDescriptors;
    this.liveSegments = liveSegments;
    this.held = held;
  }

  /**
   * Builds the view of {@code table} (version {@code version}); returns null, holding nothing, when
   * a segment was merged away meanwhile. Holds nothing either when it throws.
   */
  static TableView build(long version, List<SegmentDescriptor> table) throws IOException {
    List<SegmentVersion> held = new ArrayList<>(table.size());
    boolean success = false;
    try {
      List<LeafReader> leaves = new ArrayList<>(table.size());
      List<SegmentDescriptor> liveDescriptors = new ArrayList<>(2);
      List<LiveSegment> liveSegments = new ArrayList<>(2);
      for (SegmentDescriptor d : table) {
        DeletedDocs deletions = d.deletions();
        SegmentVersion v = d.acquire();
        if (v == null) {
          return null;
        }
        held.add(v);
        if (v.tier() == SegmentVersion.Tier.LIVE) {
          liveDescriptors.add(d);
          liveSegments.add(v.liveSegment());
        } else if (v.maxDoc() > 0) {
          leaves.add(new LiveDocsCodecReader(v.segment(), deletions));
        }
      }
      MultiReader segments = new MultiReader(leaves.toArray(new LeafReader[0]), false);
      TableView view =
          new TableView(
              version, segments, List.copyOf(liveDescriptors), List.copyOf(liveSegments), held);
      success = true;
      return view;
    } finally {
      if (!success) {
        SegmentVersion.releaseAll(held);
      }
    }
  }

  long version() {
    return version;
  }

  /** Takes a reference unless the view was already released by everyone. */
  boolean tryIncRef() {
    int count;
    while ((count = refs.get()) > 0) {
      if (refs.compareAndSet(count, count + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Drops a reference; the last one releases the segment versions. */
  void release() throws IOException {
    int count = refs.decrementAndGet();
    if (count == 0) {
      IOUtils.close(segments::decRef, () -> SegmentVersion.releaseAll(held));
    } else if (count < 0) {
      throw new IllegalStateException("table view released too often");
    }
  }

  /**
   * The caller's reference to this view plus the live segments' documents published now, each
   * with its current deletions.
   */
  Bound bind() {
    List<IndexReader> readers = new ArrayList<>(1 + liveSegments.size());
    if (segments.maxDoc() > 0) {
      readers.add(segments);
    }
    for (int i = 0; i < liveSegments.size(); i++) {
      LiveLeafReader live = liveSegments.get(i).reader(liveDescriptors.get(i).deletions());
      if (live.maxDoc() > 0) {
        readers.add(live);
      }
    }
    return new Bound(this, readers);
  }

  /**
   * One query's binding of a view: the readers it searches (the shared segments, then the live
   * tail). Closing it drops the query's reference to the view.
   */
  record Bound(TableView view, List<IndexReader> readers) implements Closeable {
    @Override
    public void close() throws IOException {
      view.release();
    }
  }
}
