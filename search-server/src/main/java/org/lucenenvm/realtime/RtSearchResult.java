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
 * @param statistics the statistics the hits were scored with: {@link StatisticsMode#PER_QUERY}
 *     (exact: every document of the snapshot) or {@link StatisticsMode#PER_EPOCH} (the epoch's,
 *     see {@link RtSnapshot#statistics()})
 */
public record RtSearchResult(
    TotalHits totalHits,
    List<RtHit> hits,
    boolean timedOut,
    CacheOutcome cache,
    StatisticsMode statistics) {}
