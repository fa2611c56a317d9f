package org.lucenenvm.cache;

import java.util.List;

/**
 * One cached result: the query's key, the k it was computed for, the segments it was computed
 * over, its top-k and, for a
 * disjunction, optionally one part per key term (that term's own top-k over the same segments),
 * which lets a single-term query be answered from this entry exactly (Partial Type I).
 *
 * @param key the normalized query key
 * @param k how many hits were asked for (the lists hold at most that many)
 * @param computeNanos what computing {@code results} took, which a hit saves (a cost-aware policy
 *     weighs it)
 * @param segments the segments (and their deletion generations) the results cover
 * @param results the query's top-k over those segments
 * @param termParts empty, or one list per term of a disjunction key, in key term order
 */
public record CacheEntry(
    QueryKey key,
    int k,
    long computeNanos,
    List<SegmentTag> segments,
    ResultList results,
    List<ResultList> termParts) {
  /** Copies the lists and checks the parts match the key and every hit names a segment. */
  public CacheEntry {
    segments = List.copyOf(segments);
    termParts = List.copyOf(termParts);
    if (k < 1) {
      throw new IllegalArgumentException("cache entry needs k >= 1, got " + k);
    }
    if (computeNanos < 0) {
      throw new IllegalArgumentException("cache entry needs compute time >= 0, got " + computeNanos);
    }
    checkHits(results, k, segments.size());
    for (ResultList part : termParts) {
      checkHits(part, k, segments.size());
    }
    if (!termParts.isEmpty()
        && (key.operator() != QueryKey.Operator.OR || termParts.size() != key.terms().size())) {
      throw new IllegalArgumentException(
          "term parts need a disjunction key with one part per term: "
              + key
              + ", "
              + termParts.size()
              + " parts");
    }
  }

  private static void checkHits(ResultList list, int k, int segmentCount) {
    if (list.hits().size() > k) {
      throw new IllegalArgumentException(list.hits().size() + " cached hits for k=" + k);
    }
    for (ScoredDoc hit : list.hits()) {
      if (hit.segment() >= segmentCount) {
        throw new IllegalArgumentException(
            "cached hit names segment " + hit.segment() + " of " + segmentCount);
      }
    }
  }

  /** The part for term {@code index} of the key, for a Partial Type I hit. */
  public ResultList termPart(int index) {
    if (termParts.isEmpty()) {
      throw new IllegalStateException("entry " + key + " keeps no term parts");
    }
    return termParts.get(index);
  }
}
