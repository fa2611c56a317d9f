package org.lucenenvm.realtime;

import java.util.List;
import org.apache.lucene.search.TotalHits;

/**
 * The top hits of a query.
 *
 * @param totalHits number of matching documents (exact or a lower bound, see {@link TotalHits})
 * @param hits best hits first
 * @param timedOut whether collection stopped at a time limit (then the hits and the total are
 *     those collected until then)
 */
public record RtSearchResult(TotalHits totalHits, List<RtHit> hits, boolean timedOut) {
  /** A complete result (no time limit hit). */
  public RtSearchResult(TotalHits totalHits, List<RtHit> hits) {
    this(totalHits, hits, false);
  }
}
