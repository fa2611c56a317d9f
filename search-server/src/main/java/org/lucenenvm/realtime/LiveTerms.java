package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BaseTermsEnum;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;
import org.apache.lucene.util.BytesRefComparator;
import org.apache.lucene.util.Sorter;
import org.apache.lucene.util.StringSorter;

/**
 * The terms of one {@link LiveField} as a snapshot of {@code maxDoc} docs sees them. Exact lookups
 * go through the field's term hash; sorted iteration (next, seekCeil, ords) sorts the ids of the
 * visible terms once per snapshot, on first use, with Lucene's radix string sorter reading each
 * term's bytes from its key or in place in the pool (no object per term).
 */
final class LiveTerms extends Terms {
  private final LiveField field;
  private final LiveTermHash terms;
  private final int maxDoc;
  /** Ids of the visible terms in term order, or null until first needed. */
  private volatile int[] sorted;

  LiveTerms(LiveField field, int maxDoc) {
    this.field = field;
    this.terms = field.terms;
    this.maxDoc = maxDoc;
  }

  private int[] sorted() {
    int[] s = sorted;
    if (s == null) {
      int count = terms.termCount();
      int[] ids = new int[count];
      int n = 0;
      for (int id = 0; id < count; id++) {
        if (LivePostingList.visible(field, id, maxDoc)) {
          ids[n++] = id;
        }
      }
      s = n == count ? ids : Arrays.copyOf(ids, n);
      sortByTerm(s);
      sorted = s;
    }
    return s;
  }

  /**
   * Sorts {@code ids} by term, keeping each term's key and pool address beside its id, so a radix
   * step reads an inline term from the keys and a long one from the pool without the term table.
   */
  private void sortByTerm(int[] ids) {
    long[] keys = new long[ids.length];
    int[] addresses = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      keys[i] = terms.key(ids[i]);
      addresses[i] = terms.termAddress(ids[i]);
    }
    new StringSorter(BytesRefComparator.NATURAL) {
      @Override
      protected void get(BytesRefBuilder builder, BytesRef result, int i) {
        terms.termAt(keys[i], addresses[i], result);
      }

      @Override
      protected void swap(int i, int j) {
        int tmp = ids[i];
        ids[i] = ids[j];
        ids[j] = tmp;
        tmp = addresses[i];
        addresses[i] = addresses[j];
        addresses[j] = tmp;
        long key = keys[i];
        keys[i] = keys[j];
        keys[j] = key;
      }

      /** Radix steps read one byte where it is, without pointing a BytesRef at the term. */
      @Override
      protected Sorter radixSorter(BytesRefComparator cmp) {
        return new MSBStringRadixSorter(cmp) {
          @Override
          protected int byteAt(int i, int k) {
            return terms.byteAt(keys[i], addresses[i], k);
          }
        };
      }
    }.sort(0, ids.length);
  }

  @Override
  public TermsEnum iterator() {
    return new Enum();
  }

  @Override
  public long size() {
    return sorted().length;
  }

  @Override
  public long getSumTotalTermFreq() {
    return field.sumTotalTermFreq(maxDoc);
  }

  @Override
  public long getSumDocFreq() {
    return field.sumDocFreq(maxDoc);
  }

  @Override
  public int getDocCount() {
    return field.docCount(maxDoc);
  }

  @Override
  public boolean hasFreqs() {
    return field.hasPositions();
  }

  @Override
  public boolean hasOffsets() {
    return false;
  }

  @Override
  public boolean hasPositions() {
    return field.hasPositions();
  }

  @Override
  public boolean hasPayloads() {
    return false;
  }

  /**
   * A term of a field's term hash and its postings visible to a snapshot of {@code maxDoc} docs: a
   * later seek to it in the same snapshot needs no lookup.
   */
  private static final class LiveTermState extends TermState {
    private LiveTermHash terms;
    private int maxDoc;
    private int termId;
    private LivePostingList list;

    LiveTermState(LiveTermHash terms, int maxDoc, int termId, LivePostingList list) {
      this.terms = terms;
      this.maxDoc = maxDoc;
      this.termId = termId;
      this.list = list;
    }

    @Override
    public void copyFrom(TermState other) {
      LiveTermState o = (LiveTermState) other;
      terms = o.terms;
      maxDoc = o.maxDoc;
      termId = o.termId;
      list = o.list;
    }
  }

  private final class Enum extends BaseTermsEnum {
    /** The current term's bytes in the pool, or null when unpositioned or exhausted. */
    private BytesRef term;
    private final BytesRef current = new BytesRef();
    private final BytesRef probe = new BytesRef();
    private int termId;
    /** The current term's postings, made on first use. */
    private LivePostingList list;
    /** Index in the sorted terms, or -1 when positioned by an exact lookup only. */
    private int ord = -1;

    @Override
    public boolean seekExact(BytesRef text) {
      int id = terms.find(text);
      LivePostingList found = id < 0 ? null : LivePostingList.of(field, id, maxDoc);
      if (found == null) {
        return false;
      }
      term = terms.term(id, current);
      termId = id;
      list = found;
      ord = -1;
      return true;
    }

    /** Positions at the term of {@code state} without a lookup when it came from these terms. */
    @Override
    public void seekExact(BytesRef text, TermState state) throws IOException {
      if (state instanceof LiveTermState s && s.terms == terms && s.maxDoc == maxDoc) {
        term = terms.term(s.termId, current);
        termId = s.termId;
        list = s.list.copy();
        ord = -1;
      } else {
        super.seekExact(text, state);
      }
    }

    @Override
    public TermState termState() {
      return new LiveTermState(terms, maxDoc, termId, list());
    }

    @Override
    public SeekStatus seekCeil(BytesRef text) {
      int[] s = sorted();
      int lo = 0;
      int hi = s.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (terms.term(s[mid], probe).compareTo(text) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo == s.length) {
        term = null;
        list = null;
        return SeekStatus.END;
      }
      boolean found = terms.term(s[lo], probe).bytesEquals(text);
      position(lo);
      return found ? SeekStatus.FOUND : SeekStatus.NOT_FOUND;
    }

    @Override
    public void seekExact(long ord) {
      position(Math.toIntExact(ord));
    }

    private void position(int index) {
      ord = index;
      termId = sorted()[index];
      term = terms.term(termId, current);
      list = null;
    }

    private LivePostingList list() {
      if (list == null) {
        list = LivePostingList.of(field, termId, maxDoc);
      }
      return list;
    }

    @Override
    public BytesRef next() {
      int[] s = sorted();
      if (term != null && ord < 0) {
        seekCeil(term);
      }
      int nextOrd = ord + 1;
      if (nextOrd >= s.length) {
        term = null;
        list = null;
        ord = s.length;
        return null;
      }
      position(nextOrd);
      return term;
    }

    @Override
    public BytesRef term() {
      return term;
    }

    @Override
    public long ord() {
      if (ord < 0) {
        seekCeil(term);
      }
      return ord;
    }

    @Override
    public int docFreq() {
      return list().size();
    }

    @Override
    public long totalTermFreq() {
      return list().totalTermFreq();
    }

    @Override
    public PostingsEnum postings(PostingsEnum reuse, int flags) {
      boolean positions = PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS);
      return reuse instanceof LivePostingsEnum e
          ? e.reset(list(), positions)
          : new LivePostingsEnum(list(), positions);
    }

    @Override
    public ImpactsEnum impacts(int flags) {
      return new LivePostingsEnum(list(), PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS));
    }
  }
}
