package org.lucenenvm.cache;

import java.util.List;

/**
 * One cached result: the query's key, the segments it was computed over, its top-k and, for a
 * disjunction, optionally one part per key term (that term's own top-k over the same segments),
 * which lets a single-term query be answered from this entry exactly (Partial Type I).
 *
 * @param key the normalized query key
 * @param segments the segments (and their deletion generations) the results cover
 * @param results the query's top-k over those segments
 * @param termParts empty, or one list per term of a disjunction key, in key term order
 */
public record CacheEntry(
    QueryKey key, List<SegmentTag> segments, ResultList results, List<ResultList> termParts) {
  /** Copies the lists and checks the parts match the key. */
  public CacheEntry {
    segments = List.copyOf(segments);
    termParts = List.copyOf(termParts);
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

  /** The part for term {@code index} of the key, for a Partial Type I hit. */
  public ResultList termPart(int index) {
    if (termParts.isEmpty()) {
      throw new IllegalStateException("entry " + key + " keeps no term parts");
    }
    return termParts.get(index);
  }
}
