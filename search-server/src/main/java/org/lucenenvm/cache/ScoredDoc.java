package org.lucenenvm.cache;

/**
 * One cached hit: the document's identity (its id field) and its score.
 *
 * @param id the document id
 * @param score the similarity score
 */
public record ScoredDoc(String id, float score) {
  /** Requires an id. */
  public ScoredDoc {
    if (id == null) {
      throw new IllegalArgumentException("a cached hit needs a document id");
    }
  }
}
