package org.lucenenvm.cache;

/**
 * One cached hit: the document as (segment, doc) — stable while the segment exists, unlike a doc
 * id of a whole index — and its score.
 *
 * @param segment the index of the document's segment in its entry's {@link CacheEntry#segments()}
 * @param doc the document's number within that segment
 * @param score the similarity score
 */
public record ScoredDoc(int segment, int doc, float score) {
  /** Requires non-negative positions. */
  public ScoredDoc {
    if (segment < 0 || doc < 0) {
      throw new IllegalArgumentException("cached hit at segment " + segment + ", doc " + doc);
    }
  }
}
