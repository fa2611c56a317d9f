package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.LeafReader;

/**
 * The immutable view of one {@link DescriptorTable} version, shared by every query of that
 * version: the leaf readers of the Lucene segments (DRAM or NVM copies, deletions applied), built
 * once, and the live segments whose published documents each query binds itself.
 * Holds a reference to every segment version it reads (SPIRIT's D-/N-locks) until its own reference
 * count, one for the table plus one per query, drops to zero. Also keeps, for {@link
 * StatisticsMode#PER_EPOCH} and the result cache, the ids and deletion counts of its Lucene
 * segments and their memoized statistics.
 */
final class TableView {
  private final long version;
  /** One leaf per Lucene segment, in the order of {@link #segmentIds}. */
  private final List<LeafReader> segments;
  private final List<SegmentDescriptor> liveDescriptors;
  private final List<LiveSegment> liveSegments;
  private final List<SegmentVersion> held;
  private final long[] segmentIds;
  private final int[] deletionCounts;
  private final boolean[] inEpoch;
  private final CommittedStatistics statistics;
  private final AtomicInteger refs = new AtomicInteger(1);

  private TableView(
      long version,
      List<LeafReader> segments,
      long[] segmentIds,
      int[] deletionCounts,
      StatisticsEpoch.Assignment epoch,
      List<SegmentDescriptor> liveDescriptors,
      List<LiveSegment> liveSegments,
      List<SegmentVersion> held) {
    this.version = version;
    this.segments = segments;
    this.segmentIds = segmentIds;
    this.deletionCounts = deletionCounts;
    this.inEpoch = epoch.inEpoch();
    List<LeafReader> epochLeaves = new ArrayList<>(inEpoch.length);
    for (int i = 0; i < inEpoch.length; i++) {
      if (inEpoch[i]) {
        epochLeaves.add(segments.get(i));
      }
    }
    this.statistics = new CommittedStatistics(epochLeaves, epoch.memo());
    this.liveDescriptors = liveDescriptors;
    this.liveSegments = liveSegments;
    this.held = held;
  }

  /**
   * Builds the view of {@code table} (version {@code version}), its Lucene segments placed in or out
   * of the statistics {@code epoch}; returns null, holding nothing, when
   * a segment was merged away meanwhile. Holds nothing either when it throws.
   */
  static TableView build(long version, List<SegmentDescriptor> table, StatisticsEpoch epoch)
      throws IOException {
    List<SegmentVersion> held = new ArrayList<>(table.size());
    boolean success = false;
    try {
      List<LeafReader> leaves = new ArrayList<>(table.size());
      long[] ids = new long[table.size()];
      int[] deletionCounts = new int[table.size()];
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
          ids[leaves.size()] = d.id();
          deletionCounts[leaves.size()] = deletions == null ? 0 : deletions.count();
          leaves.add(new LiveDocsCodecReader(v.segment(), deletions));
        }
      }
      long[] segmentIds = Arrays.copyOf(ids, leaves.size());
      TableView view =
          new TableView(
              version,
              List.copyOf(leaves),
              segmentIds,
              Arrays.copyOf(deletionCounts, leaves.size()),
              epoch.assign(segmentIds),
              List.copyOf(liveDescriptors),
              List.copyOf(liveSegments),
              held);
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

  /**
   * The ids of the Lucene (non-live) segments, in the order of their leaves (the first ones {@link
   * #bind} returns).
   */
  long[] segmentIds() {
    return segmentIds;
  }

  /** The deletion count of each Lucene segment, in the order of {@link #segmentIds()}. */
  int[] deletionCounts() {
    return deletionCounts;
  }

  /**
   * Whether each Lucene segment, in the order of {@link #segmentIds()}, belongs to the statistics
   * epoch.
   */
  boolean[] inEpoch() {
    return inEpoch;
  }

  /** The memoized statistics of the epoch's segments (what {@link StatisticsMode#PER_EPOCH} uses). */
  CommittedStatistics statistics() {
    return statistics;
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
      SegmentVersion.releaseAll(held);
    } else if (count < 0) {
      throw new IllegalStateException("table view released too often");
    }
  }

  /**
   * The caller's reference to this view plus the live segments' documents published now, each
   * with its current deletions.
   */
  Bound bind() {
    List<LeafReader> leaves = new ArrayList<>(segments.size() + liveSegments.size());
    leaves.addAll(segments);
    long[] liveIds = new long[liveSegments.size()];
    int[] liveDeletionCounts = new int[liveSegments.size()];
    int bound = 0;
    for (int i = 0; i < liveSegments.size(); i++) {
      SegmentDescriptor descriptor = liveDescriptors.get(i);
      DeletedDocs deletions = descriptor.deletions();
      LiveLeafReader live = liveSegments.get(i).reader(deletions);
      if (live.maxDoc() > 0) {
        leaves.add(live);
        liveIds[bound] = descriptor.id();
        liveDeletionCounts[bound++] = deletions == null ? 0 : deletions.count();
      }
    }
    return new Bound(
        this, leaves, Arrays.copyOf(liveIds, bound), Arrays.copyOf(liveDeletionCounts, bound));
  }

  /**
   * One query's binding of a view: the leaves it searches (the shared segments' in the order of
   * {@link #segmentIds}, then the live tail's), and the ids and deletion counts of the live
   * segments bound, in leaf order. Closing it drops the query's reference to the view.
   */
  record Bound(
      TableView view, List<LeafReader> leaves, long[] liveIds, int[] liveDeletionCounts)
      implements Closeable {
    @Override
    public void close() throws IOException {
      view.release();
    }
  }
}
