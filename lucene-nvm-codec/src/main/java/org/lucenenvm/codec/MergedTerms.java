package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.index.BaseTermsEnum;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.PriorityQueue;

/**
 * The union of one field's terms in the source segments of a merge, for a linked merge: its enum
 * steps through the terms in order and tells, at each term, which sources hold it (in source
 * order) and their term states. Statistics are the sums of the sources' (exact when the sources'
 * doc ID ranges are disjoint and nothing is deleted, as in a linked merge). Postings are not
 * merged here: a linked merge reads no postings.
 */
final class MergedTerms extends Terms {

  private final FieldInfo field;

  /** Per source segment, its terms of the field, or null. */
  private final Terms[] sources;

  MergedTerms(FieldInfo field, Terms[] sources) {
    this.field = field;
    this.sources = sources;
  }

  /** Number of source segments. */
  int sourceCount() {
    return sources.length;
  }

  /** The terms of the field in source {@code source}, or null if it has none. */
  Terms source(int source) {
    return sources[source];
  }

  @Override
  public UnionEnum iterator() throws IOException {
    return new UnionEnum();
  }

  @Override
  public long size() {
    return -1;
  }

  @Override
  public long getSumTotalTermFreq() throws IOException {
    return sum(Terms::getSumTotalTermFreq);
  }

  @Override
  public long getSumDocFreq() throws IOException {
    return sum(Terms::getSumDocFreq);
  }

  @Override
  public int getDocCount() throws IOException {
    return Math.toIntExact(sum(Terms::getDocCount));
  }

  /** A statistic of one source's terms. */
  private interface Statistic {
    long of(Terms terms) throws IOException;
  }

  /** The sum of {@code statistic} over the sources that have the field. */
  private long sum(Statistic statistic) throws IOException {
    long sum = 0;
    for (Terms terms : sources) {
      sum += terms == null ? 0 : statistic.of(terms);
    }
    return sum;
  }

  @Override
  public boolean hasFreqs() {
    return field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
  }

  @Override
  public boolean hasOffsets() {
    return field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS)
        >= 0;
  }

  @Override
  public boolean hasPositions() {
    return field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
  }

  @Override
  public boolean hasPayloads() {
    return field.hasPayloads();
  }

  /** One source's enum and its current term. */
  private static final class Sub {
    final int source;
    final TermsEnum terms;
    BytesRef term;

    Sub(int source, TermsEnum terms) {
      this.source = source;
      this.terms = terms;
    }
  }

  /**
   * Steps through the union of the sources' terms with a priority queue of the sources' enums
   * (ties in source order). Only {@link #next}, {@link #term}, {@link #docFreq}, {@link
   * #totalTermFreq} and the per-source accessors are supported: nothing else is needed to write a
   * linked segment's terms dictionary.
   */
  final class UnionEnum extends BaseTermsEnum {
    private final PriorityQueue<Sub> queue;
    private final Sub[] atTerm;
    private int atTermCount;
    private BytesRef term;

    private UnionEnum() throws IOException {
      queue =
          new PriorityQueue<>(sources.length) {
            @Override
            protected boolean lessThan(Sub a, Sub b) {
              int cmp = a.term.compareTo(b.term);
              return cmp != 0 ? cmp < 0 : a.source < b.source;
            }
          };
      atTerm = new Sub[sources.length];
      for (int i = 0; i < sources.length; i++) {
        if (sources[i] != null) {
          Sub sub = new Sub(i, sources[i].iterator());
          sub.term = sub.terms.next();
          if (sub.term != null) {
            queue.add(sub);
          }
        }
      }
    }

    /** The terms being merged. */
    MergedTerms terms() {
      return MergedTerms.this;
    }

    @Override
    public BytesRef next() throws IOException {
      for (int i = 0; i < atTermCount; i++) {
        Sub sub = atTerm[i];
        sub.term = sub.terms.next();
        if (sub.term != null) {
          queue.add(sub);
        }
      }
      atTermCount = 0;
      if (queue.size() == 0) {
        return term = null;
      }
      Sub top = queue.pop();
      atTerm[atTermCount++] = top;
      while (queue.size() > 0 && queue.top().term.equals(top.term)) {
        atTerm[atTermCount++] = queue.pop();
      }
      return term = top.term;
    }

    /** Number of sources holding the current term. */
    int sourceCount() {
      return atTermCount;
    }

    /** The source segment of the {@code k}-th source holding the current term, in source order. */
    int source(int k) {
      return atTerm[k].source;
    }

    /** The term state of the current term in the {@code k}-th source holding it. */
    TermState termState(int k) throws IOException {
      return atTerm[k].terms.termState();
    }

    @Override
    public BytesRef term() {
      return term;
    }

    @Override
    public int docFreq() throws IOException {
      int sum = 0;
      for (int i = 0; i < atTermCount; i++) {
        sum += atTerm[i].terms.docFreq();
      }
      return sum;
    }

    @Override
    public long totalTermFreq() throws IOException {
      long sum = 0;
      for (int i = 0; i < atTermCount; i++) {
        sum += atTerm[i].terms.totalTermFreq();
      }
      return sum;
    }

    @Override
    public SeekStatus seekCeil(BytesRef text) {
      throw unsupported();
    }

    @Override
    public void seekExact(long ord) {
      throw unsupported();
    }

    @Override
    public long ord() {
      throw unsupported();
    }

    @Override
    public PostingsEnum postings(PostingsEnum reuse, int flags) {
      throw unsupported();
    }

    @Override
    public ImpactsEnum impacts(int flags) {
      throw unsupported();
    }

    private UnsupportedOperationException unsupported() {
      return new UnsupportedOperationException(
          "the union of terms of a linked merge only steps forward and reads no postings");
    }
  }
}
