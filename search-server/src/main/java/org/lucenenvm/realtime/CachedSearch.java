package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.lucenenvm.cache.CacheEntry;
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.QueryKeys;
import org.lucenenvm.cache.ResultCache;
import org.lucenenvm.cache.ResultList;
import org.lucenenvm.cache.ScoredDoc;
import org.lucenenvm.cache.SegmentTag;
import org.lucenenvm.cache.TailResult;

/**
 * The engine's search with the segment-aware result cache (SPIRIT), for a keyed query on a snapshot
 * that scores with epoch statistics ({@link RtSnapshot#statistics()}; {@link RtSnapshot#search}
 * sends every other search past the cache): the query's top-k over the epoch's segments comes from
 * its entry, or is computed and offered to the cache; the tail (live segments, and Lucene segments
 * outside the epoch) is searched now ({@link TailSearch}), from where the query's previous tail
 * search ended when that still holds (only the documents added since); the two are merged as
 * Lucene ranks hits ({@link TopHitsMerge}). Scores are those of an uncached search because both use
 * the epoch's statistics and the query's canonical form ({@link QueryKeys#toQuery}). A miss
 * searches the epoch segments and the tail with one weight; a hit searches only the tail, with a
 * weight whose terms are looked up in the leaves it searches alone ({@link
 * RtSnapshot.SnapshotSearcher#weightFor(QueryKey, int[])}).
 *
 * <p>An entry answers a snapshot when it was computed over exactly the snapshot's epoch segments
 * ({@link SegmentTags}), for at least the k asked (or holds every match), and none of its hits was
 * deleted since; deletions elsewhere in its segments leave its top-k exact and only make its total
 * a lower bound. An entry whose segments changed or whose hit was deleted is invalidated. A
 * single-term query may be answered from a disjunction entry's part for that term (Partial Type
 * I); a disjunction's entry holds those parts from its key's second recent miss on (unless its
 * entry was evicted in between, see {@link ResultCache#miss}). Every result says how the cache took
 * part ({@link RtSearchResult#cache()}).
 */
final class CachedSearch {
  private final ResultCache cache;

  CachedSearch(ResultCache cache) {
    this.cache = cache;
  }

  ResultCache cache() {
    return cache;
  }

  /**
   * The answer to {@code request}, whose query has {@code key}, on {@code snapshot}, which scores
   * with epoch statistics (so its epoch has at least one segment).
   */
  RtSearchResult search(RtSnapshot snapshot, QueryKey key, RtSearchRequest request)
      throws IOException {
    assert snapshot.statistics() == StatisticsMode.PER_EPOCH : "exact statistics bypass the cache";
    int k = request.k();
    List<RtSnapshot.SnapshotSegment> segments = snapshot.segments();
    RtSnapshot.SnapshotSearcher s = snapshot.searcherFor(request.timeout());
    try {
      Head head = cachedHead(key, k, segments, s);
      Weight allLeaves = null;
      if (head == null) {
        boolean repeated = cache.miss(key);
        allLeaves = s.weightFor(QueryKeys.toQuery(key));
        List<SegmentTag> epoch = SegmentTags.of(segments);
        head =
            new Head(
                computeAndOffer(key, epoch, allLeaves, k, segments, s, repeated),
                epoch,
                CacheOutcome.MISS);
      }
      TopDocs merged = head.top();
      if (snapshot.tailLeaves().length > 0) {
        // a miss's weight serves the tail too; a hit's looks the terms up in the leaves it searches
        TailResult previous = cache.tail(key);
        TailSearch.Found tail =
            TailSearch.search(
                snapshot, s, key, head.epoch(), allLeaves, k, head.top(), previous);
        if (tail.resumed() && head.outcome().isHit()) {
          cache.tailResumed();
        }
        if (tail.next() != null && tail.next() != previous) {
          cache.keepTail(key, tail.next());
        }
        merged = TopHitsMerge.merge(k, head.top(), tail.top());
      }
      return snapshot.result(merged, s, request.withStoredFields(), head.outcome());
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      return snapshot.timedOutBeforeCollection();
    }
  }

  /** The epoch part of an answer, the epoch's segments, and whether an entry gave it. */
  private record Head(TopDocs top, List<SegmentTag> epoch, CacheOutcome outcome) {}

  /** The epoch part of the answer from a valid entry, or null (a miss). */
  private Head cachedHead(
      QueryKey key,
      int k,
      List<RtSnapshot.SnapshotSegment> segments,
      RtSnapshot.SnapshotSearcher s) {
    CacheEntry own = cache.get(key);
    if (own != null) {
      TopDocs top = answer(own, own.results(), k, segments, s);
      if (top != null) {
        cache.hit(key, false);
        return new Head(top, own.segments(), CacheOutcome.HIT);
      }
    }
    if (key.operator() == QueryKey.Operator.SINGLE) {
      for (CacheEntry holder : cache.partHolders(key)) {
        Optional<Integer> part = holder.key().termPartFor(key);
        if (part.isPresent()) {
          TopDocs top = answer(holder, holder.termPart(part.get()), k, segments, s);
          if (top != null) {
            cache.hit(holder.key(), true);
            return new Head(top, holder.segments(), CacheOutcome.PARTIAL_HIT);
          }
        }
      }
    }
    return null;
  }

  /**
   * {@code list} of {@code entry} as the top {@code k} over {@code segments} (doc ids of the
   * snapshot), or null when it cannot answer; invalidates the entry when it no longer holds.
   */
  private TopDocs answer(
      CacheEntry entry,
      ResultList list,
      int k,
      List<RtSnapshot.SnapshotSegment> segments,
      RtSnapshot.SnapshotSearcher s) {
    if (!SegmentTags.same(entry.segments(), segments)) {
      cache.invalidate(entry.key());
      return null;
    }
    if (k > entry.k() && !list.complete()) {
      return null; // computed for fewer hits: recomputed and replaced
    }
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    long deletedSince = 0;
    for (int i = 0; i < segments.size(); i++) {
      long before = entry.segments().get(i).deletionGeneration();
      long now = segments.get(i).deletionCount();
      if (now < before) {
        cache.invalidate(entry.key());
        return null;
      }
      deletedSince += now - before;
    }
    int count = Math.min(k, list.hits().size());
    ScoreDoc[] docs = new ScoreDoc[count];
    for (int h = 0; h < list.hits().size(); h++) {
      ScoredDoc hit = list.hits().get(h);
      LeafReaderContext leaf = leaves.get(segments.get(hit.segment()).leaf());
      if (deletedSince > 0) {
        // every cached hit, not only the first k: a complete list's total relies on all of them
        Bits live = leaf.reader().getLiveDocs();
        if (live != null && !live.get(hit.doc())) {
          cache.invalidate(entry.key());
          return null;
        }
      }
      if (h < count) {
        docs[h] = new ScoreDoc(leaf.docBase + hit.doc(), hit.score());
      }
    }
    TotalHits total;
    if (deletedSince == 0 || list.complete()) {
      // complete: no deleted doc matched, as every match is a live cached hit
      total = new TotalHits(list.totalHits(), relation(list.totalExact()));
    } else {
      total =
          new TotalHits(
              Math.max(list.hits().size(), list.totalHits() - deletedSince),
              TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO);
    }
    return new TopDocs(total, docs);
  }

  /**
   * Searches the epoch segments with {@code weight} (the query's, shared with the tail search),
   * offers the result to the cache unless the search timed out, and returns it; the compute time
   * recorded is that of the epoch search, which a hit saves (a hit still creates a weight, for the
   * tail only). A disjunction's entry holds one part per term (for Partial Type I) only when its
   * key {@code missedBefore} (recently, see {@link ResultCache#miss}): a part costs one more
   * search per term, worth paying for a query that repeats, not for one seen once.
   */
  private TopDocs computeAndOffer(
      QueryKey key,
      List<SegmentTag> tags,
      Weight weight,
      int k,
      List<RtSnapshot.SnapshotSegment> segments,
      RtSnapshot.SnapshotSearcher s,
      boolean missedBefore)
      throws IOException {
    int[] ords = new int[segments.size()];
    for (int i = 0; i < ords.length; i++) {
      ords[i] = segments.get(i).leaf();
    }
    long start = System.nanoTime();
    TopDocs head = s.searchLeaves(weight, k, ords);
    long computeNanos = System.nanoTime() - start;
    if (s.timedOut()) {
      return head;
    }
    List<ResultList> parts = new ArrayList<>();
    if (key.operator() == QueryKey.Operator.OR && missedBefore) {
      for (Term term : key.terms()) {
        TopDocs part = s.searchLeaves(new TermQuery(term), k, ords);
        if (s.timedOut()) {
          return head;
        }
        parts.add(toList(part, segments, s));
      }
    }
    cache.admit(new CacheEntry(key, k, computeNanos, tags, toList(head, segments, s), parts));
    return head;
  }

  /** Hits of the epoch segments (snapshot doc ids) as (segment index, doc) pairs. */
  private static ResultList toList(
      TopDocs top, List<RtSnapshot.SnapshotSegment> segments, RtSnapshot.SnapshotSearcher s) {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int[] segmentOfLeaf = new int[leaves.size()];
    for (int i = 0; i < segments.size(); i++) {
      segmentOfLeaf[segments.get(i).leaf()] = i;
    }
    List<ScoredDoc> hits = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      int leaf = ReaderUtil.subIndex(sd.doc, leaves);
      hits.add(new ScoredDoc(segmentOfLeaf[leaf], sd.doc - leaves.get(leaf).docBase, sd.score));
    }
    return new ResultList(
        top.totalHits.value(),
        top.totalHits.relation() == TotalHits.Relation.EQUAL_TO,
        hits);
  }

  private static TotalHits.Relation relation(boolean exact) {
    return exact ? TotalHits.Relation.EQUAL_TO : TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO;
  }
}
