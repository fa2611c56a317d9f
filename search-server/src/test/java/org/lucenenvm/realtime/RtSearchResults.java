package org.lucenenvm.realtime;

import java.util.List;

/** Compares search results in tests. */
final class RtSearchResults {
  private RtSearchResults() {}

  /**
   * Each hit of {@code result} as its id and the exact bits of its score, in order: two results
   * with equal lists have the same documents, order and scores.
   */
  static List<String> idsAndScores(RtSearchResult result) {
    return result.hits().stream()
        .map(h -> h.id() + "=" + Float.floatToIntBits(h.score()))
        .toList();
  }
}
