package org.lucenenvm.realtime;

import java.util.Comparator;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;

/**
 * The top hits of two disjoint hit lists of one reader (a cached search's epoch part and its tail,
 * or a tail result and the documents added since), ranked as one search of that reader ranks them:
 * score descending, then doc id ({@link TopDocs#merge(int, int, TopDocs[], Comparator)}); the
 * total is the sum, exact only when both are.
 */
final class TopHitsMerge {
  private static final Comparator<ScoreDoc> DOC_ORDER = Comparator.comparingInt(hit -> hit.doc);

  private TopHitsMerge() {}

  /** The top {@code k} of {@code a} and {@code b}, each ranked by score, then doc id. */
  static TopDocs merge(int k, TopDocs a, TopDocs b) {
    return TopDocs.merge(0, k, new TopDocs[] {a, b}, DOC_ORDER);
  }
}
