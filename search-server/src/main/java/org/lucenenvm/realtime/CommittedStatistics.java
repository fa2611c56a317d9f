package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;

/**
 * The collection and term statistics of the statistics epoch's segments of one table view, computed
 * on first use
 * and kept for the view's life (the segments never change; deletions do not count, as in Lucene).
 * At most {@value #MAX_TERMS} terms are remembered; beyond, a term's statistics are recomputed on
 * each use. Thread-safe.
 */
final class CommittedStatistics {
  static final int MAX_TERMS = 100_000;

  /**
   * Statistics of one field: maxDoc, docCount, sumTotalTermFreq, sumDocFreq, as Lucene's
   * {@link org.apache.lucene.search.CollectionStatistics} counts them.
   */
  record Field(long maxDoc, long docCount, long sumTotalTermFreq, long sumDocFreq) {}

  /** Statistics of one term: docFreq and totalTermFreq (0 and 0 when absent). */
  record TermCounts(long docFreq, long totalTermFreq) {}

  /** The statistics remembered for one epoch. */
  static final class Memo {
    private final Map<String, Field> fields = new ConcurrentHashMap<>();
    private final Map<Term, TermCounts> terms = new ConcurrentHashMap<>();
  }

  private final List<LeafReader> leaves;
  private final long maxDoc;
  private final Map<String, Field> fields;
  private final Map<Term, TermCounts> terms;

  /** Statistics of {@code leaves} (the epoch's segments in one view), remembered in {@code memo}. */
  CommittedStatistics(List<LeafReader> leaves, Memo memo) {
    this.leaves = List.copyOf(leaves);
    this.fields = memo.fields;
    this.terms = memo.terms;
    long docs = 0;
    for (LeafReader leaf : leaves) {
      docs += leaf.maxDoc();
    }
    this.maxDoc = docs;
  }

  Field field(String field) throws IOException {
    Field known = fields.get(field);
    if (known != null) {
      return known;
    }
    long docCount = 0;
    long sumTotalTermFreq = 0;
    long sumDocFreq = 0;
    for (LeafReader leaf : leaves) {
      Terms t = Terms.getTerms(leaf, field);
      docCount += t.getDocCount();
      sumTotalTermFreq += t.getSumTotalTermFreq();
      sumDocFreq += t.getSumDocFreq();
    }
    Field computed = new Field(maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
    fields.put(field, computed);
    return computed;
  }

  TermCounts term(Term term) throws IOException {
    TermCounts known = terms.get(term);
    if (known != null) {
      return known;
    }
    long docFreq = 0;
    long totalTermFreq = 0;
    for (LeafReader leaf : leaves) {
      Terms t = leaf.terms(term.field());
      if (t != null) {
        TermsEnum e = t.iterator();
        if (e.seekExact(term.bytes())) {
          docFreq += e.docFreq();
          totalTermFreq += e.totalTermFreq();
        }
      }
    }
    TermCounts computed = new TermCounts(docFreq, totalTermFreq);
    if (terms.size() < MAX_TERMS) {
      terms.put(term, computed);
    }
    return computed;
  }
}
