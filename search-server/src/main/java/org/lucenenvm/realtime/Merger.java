package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.util.FixedBitSet;

/**
 * Pipeline stage 4: keeps the partition's segment count within {@link
 * RtEngineConfig#maxSegments()} by merging flushed segments as its {@link SizeTieredMergePolicy}
 * chooses, so that the table keeps two free slots for the next live segments (writers wait for a
 * slot, see {@link Partition}, and are woken by the merger once a merge freed slots or the NVM
 * budget refused one). Under an eager-engrave policy only segments with an NVM copy are
 * merged (the indexer engraves a flushed segment right away, and the segments with an NVM copy
 * then always hold a prefix of the operations, which crash-consistent recovery relies on); under
 * lazy engrave DRAM-only segments are merged too. A merge writes one new NVM segment with Lucene's
 * merge code ({@code addIndexes} of the sources' readers), swaps it into the table in place of its
 * sources and gives it the sources' deletions that the merge did not drop, deletes that reached the
 * sources meanwhile included; the {@link Pipeline.Checkpoint} records the new table (the merged
 * segment with those deletions) before the sources are freed. A merge still writing when the
 * pipeline stops (close, volatile shutdown, failure) is aborted ({@link AbortableMergeDirectory})
 * and leaves the table as it was.
 *
 * <p>Deleted documents: where merges link postings ({@link Tiers#mergesLink}: an {@code NvmCodec}
 * with {@link RtEngineConfig#linkedMerges()}) and at most {@link
 * RtEngineConfig#mergeDeletesPctAllowed()} percent of the sources' documents are deleted, the merge is given the sources without their deletions, so
 * it keeps every document (source i's doc d becomes the merged segment's doc docBase<sub>i</sub> +
 * d, and a codec may link the sources' postings instead of copying them), and the sources'
 * deletions become the merged segment's. Above that share it drops the deleted documents, which
 * compacts segments that kept deletions through earlier merges.
 *
 * <p>Room: a merge reserves its output's estimated size (the sources' bytes scaled by the share
 * of their documents it keeps, plus a margin) before it starts; one the NVM budget or pool cannot
 * take is deferred, changing nothing, and tried again on the merger's next pass. While the pool
 * refuses writes for want of room ({@link NvmSpace#refusesWrites}), each pass first reclaims the
 * space of deleted documents ({@link #reclaimAsNeeded}): segments whose documents are all deleted
 * are dropped (no room needed), and those with at least {@value #RECLAIM_DELETED_PERCENT}% deleted
 * are rewritten alone, dropping their deleted documents, most deleted bytes first, as far as the
 * room allows.
 */
final class Merger {
  /** A segment is rewritten to reclaim deleted documents' room once this share is deleted. */
  static final int RECLAIM_DELETED_PERCENT = 10;
  /** Margin of a merged segment's size estimate over its sources' live bytes. */
  private static final double ESTIMATE_MARGIN = 1.1;
  /** Pool room a merge takes beyond its estimate: its files' allocation rounding (whole blocks). */
  private static final long ESTIMATE_SLACK = 64 << 10;

  private final int maxSegments;
  private final int mergeWidth;
  private final boolean nvmCopiesOnly;
  /** Merges keep deleted documents masked while at most this percent of their sources' are. */
  private final double keepDeletesPct;
  private final Tiers tiers;
  private final PartitionTable table;
  private final Pipeline.Checkpoint checkpoint;
  /** Whether the last merge attempt was refused for want of room (cleared by the next merge). */
  private volatile boolean refused;
  /** Merges deferred for want of room (written by the merging thread only). */
  private volatile long deferred;

  Merger(
      RtEngineConfig config, Tiers tiers, PartitionTable table, Pipeline.Checkpoint checkpoint) {
    this.maxSegments = config.maxSegments();
    this.mergeWidth = config.mergeFactor();
    this.nvmCopiesOnly = config.policy().eagerEngrave();
    // keeping deleted documents pays only where merges link; elsewhere it would only cost room
    this.keepDeletesPct = tiers.mergesLink() ? config.mergeDeletesPctAllowed() : 0;
    this.tiers = tiers;
    this.table = table;
    this.checkpoint = checkpoint;
  }

  /**
   * Merges until the table is within its segment limit, the NVM budget refuses a merge or {@code
   * stop} says so.
   */
  void mergeAsNeeded(BooleanSupplier stop) throws IOException {
    while (!stop.getAsBoolean()) {
      List<SegmentDescriptor> candidates = mergeCandidates();
      int others = table.segments().size() - candidates.size();
      // Two slots stay free: one for the live segment the writer adds next, one for the segment
      // after it while this merge runs, so a writer waits only when merges fall behind.
      int limit = Math.max(1, maxSegments - others - 2);
      List<SegmentDescriptor> sources =
          new SizeTieredMergePolicy(limit, mergeWidth).select(candidates, Merger::size);
      if (sources.isEmpty()) {
        return;
      }
      refused = !merge(sources, stop);
      if (refused) {
        table.segmentRoomChanged(); // writers at the limit may now add segments beyond it
        return; // tried again on the next pass (after a commit, or while room is reclaimed)
      }
    }
  }

  /** Whether the NVM tier had no room for the last merge: the table may stay above its limit. */
  boolean refused() {
    return refused;
  }

  /** Merges deferred so far because the NVM budget or pool had no room for their output. */
  long deferred() {
    return deferred;
  }

  /**
   * While the pool refuses writes for want of room (and until {@code stop}), drops the merge
   * candidates whose documents are all deleted and rewrites, alone, those with at least {@value
   * #RECLAIM_DELETED_PERCENT}% of their documents deleted, most deleted bytes first; a rewrite the
   * room does not allow is deferred and the next candidate tried.
   */
  void reclaimAsNeeded(BooleanSupplier stop) throws IOException {
    if (!tiers.space().refusesWrites()) {
      return;
    }
    List<SegmentDescriptor> candidates = new ArrayList<>();
    for (SegmentDescriptor d : mergeCandidates()) {
      if (deletedPercent(d) >= RECLAIM_DELETED_PERCENT) {
        candidates.add(d);
      }
    }
    candidates.sort(Comparator.comparingDouble(Merger::deletedBytes).reversed());
    for (SegmentDescriptor d : candidates) {
      if (stop.getAsBoolean() || !tiers.space().refusesWrites()) {
        return;
      }
      merge(List.of(d), false, stop);
    }
  }

  /** The flushed segments a merge may take, in table order. */
  private List<SegmentDescriptor> mergeCandidates() {
    List<SegmentDescriptor> candidates = new ArrayList<>();
    for (SegmentDescriptor d : table.segments()) {
      if (isCandidate(d)) {
        candidates.add(d);
      }
    }
    return candidates;
  }

  private boolean isCandidate(SegmentDescriptor d) {
    return !d.isLive() && !d.retired() && size(d) > 0 && (d.nvm() != null || !nvmCopiesOnly);
  }

  private static int deletedPercent(SegmentDescriptor d) {
    DeletedDocs deletions = d.deletions();
    int maxDoc = d.global().maxDoc();
    return deletions == null || maxDoc == 0 ? 0 : (int) (100L * deletions.count() / maxDoc);
  }

  private static double deletedBytes(SegmentDescriptor d) {
    return size(d) * (deletedPercent(d) / 100.0);
  }

  /** Bytes of the flushed segment's stored version (NVM copy if any, else DRAM), 0 when none. */
  private static long size(SegmentDescriptor d) {
    SegmentVersion v = d.nvm();
    if (v == null) {
      v = d.dram();
    }
    return v == null ? 0 : v.bytes();
  }

  /**
   * Merges {@code sources} (in table order) into one NVM segment, keeping their deleted documents
   * masked when few enough are deleted, or drops them when every doc was deleted; returns false
   * (nothing changed, counted as deferred) when the NVM budget or pool has no room for the merge's
   * output, before it starts or while it writes. Once {@code stop} is true a merge still writing
   * is aborted: it changes nothing either (its output is deleted, its sources stay) and returns
   * true.
   */
  boolean merge(List<SegmentDescriptor> sources, BooleanSupplier stop) throws IOException {
    return merge(sources, true, stop);
  }

  private boolean merge(
      List<SegmentDescriptor> sources, boolean mayKeepDeletions, BooleanSupplier stop)
      throws IOException {
    List<SegmentDescriptor> ordered = new ArrayList<>(table.segments());
    ordered.retainAll(sources);
    List<SegmentVersion> held = new ArrayList<>(ordered.size());
    try {
      DeletedDocs[] before = new DeletedDocs[ordered.size()];
      long sourceDocs = 0;
      long deletedDocs = 0;
      int level = 0;
      long lastSequence = 0;
      for (int i = 0; i < ordered.size(); i++) {
        SegmentDescriptor s = ordered.get(i);
        before[i] = s.deletions();
        SegmentVersion v = s.acquire();
        if (v == null) {
          return true; // merged away meanwhile (engine closing): the table changed anyway
        }
        held.add(v);
        sourceDocs += v.maxDoc();
        deletedDocs += before[i] == null ? 0 : before[i].count();
        level = Math.max(level, s.level() + 1);
        lastSequence = Math.max(lastSequence, s.lastSequence());
      }
      boolean keepDeletions =
          mayKeepDeletions && 100.0 * deletedDocs <= keepDeletesPct * sourceDocs;
      // The deletions each source's documents are merged without: none when they are kept.
      DeletedDocs[] dropped = keepDeletions ? new DeletedDocs[ordered.size()] : before;
      CodecReader[] readers = new CodecReader[ordered.size()];
      double mergedBytes = 0;
      int mergedDocs = 0;
      for (int i = 0; i < ordered.size(); i++) {
        readers[i] = new LiveDocsCodecReader(held.get(i).segment(), dropped[i]);
        mergedBytes +=
            (double) size(ordered.get(i)) * readers[i].numDocs() / Math.max(1, readers[i].maxDoc());
        mergedDocs += readers[i].numDocs();
      }
      long estimate = (long) (mergedBytes * ESTIMATE_MARGIN);
      if (deletedDocs < sourceDocs) {
        long id;
        SegmentVersion version;
        try {
          tiers.reserveNvm(
              estimate, ESTIMATE_SLACK, "a merge of segments " + ids(ordered), NvmSpace.Write.MERGE);
          id = table.newSegmentId();
          version = tiers.writeMerged(id, readers, estimate, ESTIMATE_SLACK, stop);
        } catch (MergePolicy.MergeAbortedException e) {
          return true; // the pipeline is stopping: an aborted merge is no failure
        } catch (NvmFullException e) {
          deferred++;
          return false;
        }
        SegmentDescriptor merged =
            new SegmentDescriptor(id, level, mergedDocs, version, SegmentState.MERGED);
        merged.setIdFilter(IdFilter.of(version.segment()));
        merged.setLastSequence(lastSequence);
        table.replace(
            ordered, merged, () -> remainingDeletions(ordered, dropped, readers, merged.capacity()));
      } else {
        table.remove(ordered);
      }
      checkpoint.record(); // before the sources' files may be deleted
      for (SegmentDescriptor s : ordered) {
        s.retire();
      }
      return true;
    } finally {
      SegmentVersion.releaseAll(held);
    }
  }

  private static List<Long> ids(List<SegmentDescriptor> segments) {
    List<Long> ids = new ArrayList<>(segments.size());
    for (SegmentDescriptor d : segments) {
      ids.add(d.id());
    }
    return ids;
  }

  /**
   * The merged segment's deletions (computed by {@link PartitionTable#replace} under the write
   * lock, so no delete reaches a source meanwhile): each source's deletions now that the merge did
   * not drop ({@code dropped}: those it was merged without), in merged doc ids. These are the
   * deletions the merge kept, and the deletes that reached the sources while they were being
   * merged.
   */
  private static DeletedDocs remainingDeletions(
      List<SegmentDescriptor> sources, DeletedDocs[] dropped, CodecReader[] readers, int maxDoc) {
    FixedBitSet live = null;
    int count = 0;
    int base = 0;
    for (int i = 0; i < sources.size(); i++) {
      DeletedDocs now = sources.get(i).deletions();
      if (now != null && now != dropped[i]) { // deletions only grow: now holds dropped[i]
        if (live == null) {
          live = new FixedBitSet(maxDoc);
          live.set(0, maxDoc);
        }
        int newDoc = base;
        for (int doc = 0; doc < readers[i].maxDoc(); doc++) {
          if (dropped[i] == null || dropped[i].isLive(doc)) {
            if (!now.isLive(doc)) {
              live.clear(newDoc);
              count++;
            }
            newDoc++;
          }
        }
      }
      base += readers[i].numDocs();
    }
    return live == null ? null : new DeletedDocs(live, count);
  }
}
