package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenenvm.cache.CacheEntry;
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.QueryKeys;
import org.lucenenvm.cache.ResultCache;
import org.lucenenvm.cache.ResultList;
import org.lucenenvm.cache.ScoredDoc;
import org.lucenenvm.cache.SegmentTag;
import org.lucenenvm.cache.TailResult;

/**
 * The engine's search with the segment-aware result cache (SPIRIT): a keyable query's top-k over
 * the segments of the statistics epoch ({@link StatisticsMode#PER_EPOCH}) comes from its entry, or
 * is computed and offered to the cache; the tail (live segments, and Lucene segments outside the
 * epoch) is searched now ({@link TailSearch}), from where the query's previous tail search ended
 * when that still holds (only the documents added since); the two are merged as Lucene ranks hits
 * (score descending, then document order). Scores are those of an uncached search because both use the epoch's
 * statistics, and keyable queries always run in their canonical form ({@link QueryKeys#toQuery}).
 * A miss searches the epoch segments and the tail with one weight; a hit searches only the tail,
 * with a weight whose terms are looked up in the leaves it searches alone ({@link #tailWeight}).
 *
 * <p>An entry answers a snapshot when it was computed over exactly the snapshot's epoch segments
 * (same partitions and ids, in order), for at least the k asked (or holds every match), and none of
 * its hits was deleted since; deletions elsewhere in its segments leave its top-k exact and only
 * make its total a lower bound. An entry whose segments changed or whose hit was deleted is
 * invalidated. A single-term query may be answered from a disjunction entry's part for that term
 * (Partial Type I); a disjunction's entry holds those parts from its key's second recent miss on
 * (unless its entry was evicted in between, see {@link ResultCache#miss}).
 * Queries the cache cannot key, and snapshots with no epoch segment, bypass it. Every result says
 * how the cache took part ({@link RtSearchResult#cache()}).
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
   * The top {@code k} hits of {@code query} in {@code snapshot}, from the cache when {@code
   * useCache} and it can answer; see {@link RtSnapshot#search} for the timeout.
   */
  RtSearchResult search(
      RtSnapshot snapshot,
      Query query,
      int k,
      QueryTimeout timeout,
      boolean withStoredFields,
      boolean useCache)
      throws IOException {
    Optional<QueryKey> maybeKey = QueryKeys.of(query);
    if (maybeKey.isEmpty()) {
      return snapshot.search(query, k, timeout, withStoredFields);
    }
    QueryKey key = maybeKey.get();
    List<RtSnapshot.SnapshotSegment> segments = snapshot.segments();
    if (!useCache || segments.isEmpty() || k < 1) {
      return snapshot.search(QueryKeys.toQuery(key), k, timeout, withStoredFields);
    }
    RtSnapshot.SnapshotSearcher s = snapshot.searcherFor(timeout);
    try {
      Head head = cachedHead(key, k, segments, s);
      Weight allLeaves = null;
      if (head == null) {
        boolean repeated = cache.miss(key);
        allLeaves = s.weightFor(QueryKeys.toQuery(key));
        List<SegmentTag> epoch = tags(segments);
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
                snapshot,
                s,
                key,
                head.epoch(),
                allLeaves,
                k,
                head.top(),
                previous);
        if (tail.resumed() && head.outcome().isHit()) {
          cache.tailResumed();
        }
        if (tail.next() != null && tail.next() != previous) {
          cache.keepTail(key, tail.next());
        }
        merged = merge(k, head.top(), tail.top());
      }
      return RtSnapshot.result(merged, s, withStoredFields).withCache(head.outcome());
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      return RtSnapshot.timedOutBeforeCollection();
    }
  }

  /**
   * A weight of the canonical query of {@code key} ({@link QueryKeys#toQuery(QueryKey)}) for
   * searching the leaves {@code leafOrds} only: under {@link StatisticsMode#PER_EPOCH} its terms
   * are looked up in those leaves alone ({@link RtSnapshot.SnapshotSearcher#termStatesIn}), not in
   * every leaf, and it scores exactly as the all-leaves weight does there, because the epoch's
   * statistics do not depend on the leaves searched (the leaves' own counts only tell whether a
   * term occurs in them at all). Without epoch statistics (the cache never runs so) the counts of
   * all leaves score, so this is the all-leaves weight.
   */
  static Weight tailWeight(RtSnapshot.SnapshotSearcher s, QueryKey key, int[] leafOrds)
      throws IOException {
    if (!s.scoresWithEpochStatistics()) {
      return s.weightFor(QueryKeys.toQuery(key));
    }
    return s.weightFor(
        QueryKeys.toQuery(key, term -> new TermQuery(term, s.termStatesIn(term, leafOrds))));
  }

  /** Whether {@code entry} was computed over exactly {@code segments} as they are now. */
  static boolean matchesExactly(CacheEntry entry, List<RtSnapshot.SnapshotSegment> segments) {
    if (!sameSegments(entry, segments)) {
      return false;
    }
    for (int i = 0; i < segments.size(); i++) {
      if (entry.segments().get(i).deletionGeneration() != segments.get(i).deletionCount()) {
        return false;
      }
    }
    return true;
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
    if (!sameSegments(entry, segments)) {
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

  private static boolean sameSegments(
      CacheEntry entry, List<RtSnapshot.SnapshotSegment> segments) {
    return sameSegments(entry.segments(), segments);
  }

  /** Whether {@code tags} name exactly {@code segments} (partitions and ids, in order). */
  static boolean sameSegments(List<SegmentTag> tags, List<RtSnapshot.SnapshotSegment> segments) {
    if (tags.size() != segments.size()) {
      return false;
    }
    for (int i = 0; i < tags.size(); i++) {
      SegmentTag tag = tags.get(i);
      RtSnapshot.SnapshotSegment segment = segments.get(i);
      if (tag.partition() != segment.partition() || tag.segmentId() != segment.id()) {
        return false;
      }
    }
    return true;
  }

  /** Tags of {@code segments} as they are now. */
  private static List<SegmentTag> tags(List<RtSnapshot.SnapshotSegment> segments) {
    List<SegmentTag> tags = new ArrayList<>(segments.size());
    for (RtSnapshot.SnapshotSegment segment : segments) {
      tags.add(new SegmentTag(segment.partition(), segment.id(), segment.deletionCount()));
    }
    return tags;
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
      for (BytesRef term : key.terms()) {
        TopDocs part = s.searchLeaves(new TermQuery(new Term(key.field(), term)), k, ords);
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

  /** The top {@code k} of two disjoint hit lists, ranked as Lucene ranks: score, then doc id. */
  static TopDocs merge(int k, TopDocs a, TopDocs b) {
    ScoreDoc[] x = a.scoreDocs;
    ScoreDoc[] y = b.scoreDocs;
    ScoreDoc[] out = new ScoreDoc[Math.min(k, x.length + y.length)];
    int i = 0;
    int j = 0;
    for (int n = 0; n < out.length; n++) {
      boolean takeX =
          j >= y.length
              || (i < x.length
                  && (x[i].score > y[j].score
                      || (x[i].score == y[j].score && x[i].doc < y[j].doc)));
      out[n] = takeX ? x[i++] : y[j++];
    }
    boolean exact =
        a.totalHits.relation() == TotalHits.Relation.EQUAL_TO
            && b.totalHits.relation() == TotalHits.Relation.EQUAL_TO;
    return new TopDocs(
        new TotalHits(a.totalHits.value() + b.totalHits.value(), relation(exact)), out);
  }

  private static TotalHits.Relation relation(boolean exact) {
    return exact ? TotalHits.Relation.EQUAL_TO : TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO;
  }
}
