package org.lucenenvm.realtime;

import java.util.List;
import org.apache.lucene.search.TotalHits;

/**
 * The top hits of a query.
 *
 * @param totalHits number of matching documents (exact or a lower bound, see {@link TotalHits})
 * @param hits best hits first
 * @param timedOut whether the query's timeout stopped the search early (the hits are then those
 *     found until it did)
 * @param cache how the result cache took part ({@link CacheOutcome#BYPASSED} without one)
 */
public record RtSearchResult(
    TotalHits totalHits, List<RtHit> hits, boolean timedOut, CacheOutcome cache) {

  /** This result, marked with the cache's {@code outcome}. */
  RtSearchResult withCache(CacheOutcome outcome) {
    return new RtSearchResult(totalHits, hits, timedOut, outcome);
  }
}
