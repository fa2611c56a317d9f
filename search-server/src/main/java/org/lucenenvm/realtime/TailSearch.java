package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.ResultList;
import org.lucenenvm.cache.ScoredDoc;
import org.lucenenvm.cache.SegmentTag;
import org.lucenenvm.cache.TailResult;
import org.lucenenvm.cache.TailSegment;

/**
 * The tail part of a cached search ({@link CachedSearch}, which calls it; it calls only the
 * snapshot's searcher and the merge of hit lists): the top-k of a query over a snapshot's
 * tail (its live segments and the Lucene segments outside the statistics epoch), resumed from the
 * query's {@link TailResult} where that still holds, so that only the documents added since are
 * searched (each leaf from the first document it does not cover, as an intra-segment partition);
 * returns a tail result covering the whole tail now, for the next search to resume from. Where the
 * epoch part of the answer already holds k hits and only a lower bound of its total (as one search
 * of all leaves would count then), the tail is searched only for hits that can enter the answer:
 * those scoring at least the epoch part's k-th score, its floor ({@link ScoreFloorCollector}).
 *
 * <p>A resumed answer equals a search of the whole tail: the tail result's hits are the top-k of
 * the documents it covers, scored with the same epoch's statistics; those documents and their
 * deletions are unchanged, and ties break by the same document order because its segments keep
 * their relative order in the snapshot (checked, see {@link TailResult}); a tail result searched
 * with a floor resumes only a search whose floor is at least as high.
 */
final class TailSearch {
  /** No hit, exactly. */
  private static final TopDocs NOTHING =
      new TopDocs(new TotalHits(0, TotalHits.Relation.EQUAL_TO), new ScoreDoc[0]);

  private TailSearch() {}

  /**
   * The top-k of the tail.
   *
   * @param top the hits, ranked as Lucene ranks them, with the snapshot's doc ids
   * @param resumed whether a tail result spared the documents it covers
   * @param next the tail result to keep for the next search, or null (the search timed out)
   */
  record Found(TopDocs top, boolean resumed, TailResult next) {}

  /**
   * The top {@code k} hits of {@code key}'s query in the tail of {@code snapshot} as searched by
   * {@code s}, resumed from {@code previous} (may be null) where it holds; {@code epoch} names the
   * snapshot's epoch segments (partitions and ids; their deletion counts are not used); {@code
   * weight}, if not null, is a weight of the query valid for every leaf (a miss's), else one is
   * made for the leaves searched ({@link RtSnapshot.SnapshotSearcher#weightFor(QueryKey, int[])});
   * {@code head} is the epoch part of the answer, whose k-th score may bound the search ({@link
   * #floor}).
   */
  static Found search(
      RtSnapshot snapshot,
      RtSnapshot.SnapshotSearcher s,
      QueryKey key,
      List<SegmentTag> epoch,
      Weight weight,
      int k,
      TopDocs head,
      TailResult previous)
      throws IOException {
    float floor = floor(head, k);
    List<RtSnapshot.TailLeaf> tail = snapshot.tail();
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int[] covering =
        previous == null ? null : coveringLeaves(previous, snapshot, leaves, k, floor);
    int[] from = new int[tail.size()];
    if (covering != null) {
      for (int j = 0; j < covering.length; j++) {
        from[covering[j]] = previous.segments().get(j).docCount();
      }
    }
    List<LeafReaderContextPartition> parts = new ArrayList<>(tail.size());
    int[] ords = new int[tail.size()];
    for (int t = 0; t < tail.size(); t++) {
      LeafReaderContext leaf = leaves.get(tail.get(t).leaf());
      int maxDoc = leaf.reader().maxDoc();
      if (from[t] < maxDoc) {
        ords[parts.size()] = leaf.ord;
        parts.add(LeafReaderContextPartition.createFromAndTo(leaf, from[t], maxDoc));
      }
    }
    TopDocs found = NOTHING;
    if (!parts.isEmpty()) {
      Weight w = weight != null ? weight : s.weightFor(key, Arrays.copyOf(ords, parts.size()));
      found = s.searchPartitions(w, k, parts.toArray(new LeafReaderContextPartition[0]), floor);
    }
    TopDocs top =
        covering == null
            ? found
            : TopHitsMerge.merge(k, previousTop(previous, covering, tail, leaves), found);
    TailResult next;
    if (s.timedOut()) {
      next = null;
    } else if (parts.isEmpty() && covering != null) {
      next = previous; // nothing was added: it covers the whole tail already
    } else {
      next = coveringWholeTail(epoch, k, floor, tail, leaves, top);
    }
    return new Found(top, covering != null, next);
  }

  /**
   * For each segment of {@code previous}, the index of its leaf in the snapshot's tail, or null
   * when {@code previous} does not hold here: another epoch, too few hits for {@code k}, searched
   * above a higher floor than {@code floor}, a segment gone, shrunk, with new deletions or out of
   * its relative order.
   */
  private static int[] coveringLeaves(
      TailResult previous,
      RtSnapshot snapshot,
      List<LeafReaderContext> leaves,
      int k,
      float floor) {
    if ((k > previous.k() && !previous.results().complete())
        || previous.floor() > floor
        || !SegmentTags.same(previous.epoch(), snapshot.segments())) {
      return null;
    }
    List<RtSnapshot.TailLeaf> tail = snapshot.tail();
    int[] covering = new int[previous.segments().size()];
    int t = 0;
    for (int j = 0; j < covering.length; j++) {
      TailSegment segment = previous.segments().get(j);
      while (t < tail.size() && !sameSegment(segment, tail.get(t))) {
        t++;
      }
      if (t == tail.size()) {
        return null; // gone, or now before a segment it used to follow
      }
      RtSnapshot.TailLeaf leaf = tail.get(t);
      if (leaf.deletionCount() != segment.deletionCount()
          || leaves.get(leaf.leaf()).reader().maxDoc() < segment.docCount()) {
        return null;
      }
      covering[j] = t++;
    }
    return covering;
  }

  private static boolean sameSegment(TailSegment segment, RtSnapshot.TailLeaf leaf) {
    return segment.partition() == leaf.partition()
        && segment.segmentId() == leaf.id()
        && segment.live() == leaf.live();
  }

  /** {@code previous}'s hits with the snapshot's doc ids ({@code covering} places its segments). */
  private static TopDocs previousTop(
      TailResult previous,
      int[] covering,
      List<RtSnapshot.TailLeaf> tail,
      List<LeafReaderContext> leaves) {
    ResultList list = previous.results();
    ScoreDoc[] docs = new ScoreDoc[list.hits().size()];
    for (int h = 0; h < docs.length; h++) {
      ScoredDoc hit = list.hits().get(h);
      int leaf = tail.get(covering[hit.segment()]).leaf();
      docs[h] = new ScoreDoc(leaves.get(leaf).docBase + hit.doc(), hit.score());
    }
    return new TopDocs(
        new TotalHits(
            list.totalHits(),
            list.totalExact()
                ? TotalHits.Relation.EQUAL_TO
                : TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
        docs);
  }

  /**
   * The score below which no tail hit can enter the top {@code k} when the epoch part of the
   * answer is {@code head}: its k-th score when it holds k hits and counted only a lower bound of
   * its matches, else 0 (search every tail document). With an exact head total the tail is searched
   * whole, so that an answer's total stays exact wherever one search of all leaves counts exactly.
   */
  private static float floor(TopDocs head, int k) {
    if (head.scoreDocs.length < k
        || head.totalHits.relation() != TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO) {
      return 0f;
    }
    return head.scoreDocs[k - 1].score;
  }

  /**
   * A tail result of {@code top} covering every document of the snapshot's {@code tail}, searched
   * above {@code floor} (a resumed search's floor is at least its previous one's, so the union of
   * the two holds every hit above it).
   */
  private static TailResult coveringWholeTail(
      List<SegmentTag> epoch,
      int k,
      float floor,
      List<RtSnapshot.TailLeaf> tail,
      List<LeafReaderContext> leaves,
      TopDocs top) {
    List<TailSegment> segments = new ArrayList<>(tail.size());
    for (RtSnapshot.TailLeaf leaf : tail) {
      segments.add(
          new TailSegment(
              leaf.partition(),
              leaf.id(),
              leaf.live(),
              leaves.get(leaf.leaf()).reader().maxDoc(),
              leaf.deletionCount()));
    }
    List<ScoredDoc> hits = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      int leaf = ReaderUtil.subIndex(sd.doc, leaves);
      int t = 0;
      while (tail.get(t).leaf() != leaf) {
        t++;
      }
      hits.add(new ScoredDoc(t, sd.doc - leaves.get(leaf).docBase, sd.score));
    }
    ResultList list =
        new ResultList(
            top.totalHits.value(),
            top.totalHits.relation() == TotalHits.Relation.EQUAL_TO,
            hits);
    return new TailResult(epoch, k, floor, segments, list);
  }
}
