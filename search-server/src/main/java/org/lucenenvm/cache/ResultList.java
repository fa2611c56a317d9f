package org.lucenenvm.cache;

import java.util.List;

/**
 * A top-k list over an entry's tagged segments: the hits in rank order and the total number of
 * matches in those segments (needed to merge with the segments computed at hit time).
 *
 * @param totalHits matching documents in the tagged segments
 * @param hits the top hits, best first
 */
public record ResultList(long totalHits, List<ScoredDoc> hits) {
  /** Copies the hits; requires {@code totalHits >= hits.size()}. */
  public ResultList {
    hits = List.copyOf(hits);
    if (totalHits < hits.size()) {
      throw new IllegalArgumentException("totalHits " + totalHits + " < " + hits.size() + " hits");
    }
  }
}
