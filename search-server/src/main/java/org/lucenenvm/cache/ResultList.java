package org.lucenenvm.cache;

import java.util.List;

/**
 * A top-k list over an entry's tagged segments: the hits in rank order (score descending, then
 * document order) and the number of matches in those segments, needed to merge with the segments
 * searched at hit time.
 *
 * @param totalHits matching documents in the tagged segments (a lower bound unless {@code
 *     totalExact})
 * @param totalExact whether {@code totalHits} is exact
 * @param hits the top hits, best first
 */
public record ResultList(long totalHits, boolean totalExact, List<ScoredDoc> hits) {
  /** Copies the hits; requires {@code totalHits >= hits.size()}. */
  public ResultList {
    hits = List.copyOf(hits);
    if (totalHits < hits.size()) {
      throw new IllegalArgumentException("totalHits " + totalHits + " < " + hits.size() + " hits");
    }
  }

  /** Whether the list holds every match of its segments (so it answers any k). */
  public boolean complete() {
    return totalExact && totalHits == hits.size();
  }
}
