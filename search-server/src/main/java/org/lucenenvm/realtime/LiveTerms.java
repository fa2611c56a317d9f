package org.lucenenvm.realtime;

import java.util.Arrays;
import org.apache.lucene.index.BaseTermsEnum;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * The terms of one {@link LiveField} as a snapshot of {@code maxDoc} docs sees them. Exact lookups
 * go through the field's term hash; sorted iteration (next, seekCeil, ords) sorts the visible terms
 * once per snapshot, on first use.
 */
final class LiveTerms extends Terms {
  private final LiveField field;
  private final LiveTermPostings postings;
  private final int maxDoc;
  private volatile Entry[] sorted;

  private record Entry(BytesRef term, LivePostingList postings) {}

  LiveTerms(LiveField field, int maxDoc) {
    this.field = field;
    this.postings = field.postings;
    this.maxDoc = maxDoc;
  }

  private Entry[] sorted() {
    Entry[] s = sorted;
    if (s == null) {
      int count = postings.termCount();
      Entry[] visible = new Entry[count];
      int n = 0;
      for (int id = 0; id < count; id++) {
        LivePostingList list = LivePostingList.of(postings, id, maxDoc);
        if (list != null) {
          visible[n++] = new Entry(postings.term(id), list);
        }
      }
      s = Arrays.copyOf(visible, n);
      Arrays.sort(s, (a, b) -> a.term.compareTo(b.term));
      sorted = s;
    }
    return s;
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

  private final class Enum extends BaseTermsEnum {
    private BytesRef term;
    private LivePostingList list;
    /** Index in the sorted terms, or -1 when positioned by an exact lookup only. */
    private int ord = -1;

    @Override
    public boolean seekExact(BytesRef text) {
      int id = postings.find(text);
      LivePostingList found = id < 0 ? null : LivePostingList.of(postings, id, maxDoc);
      if (found == null) {
        return false;
      }
      term = BytesRef.deepCopyOf(text);
      list = found;
      ord = -1;
      return true;
    }

    @Override
    public SeekStatus seekCeil(BytesRef text) {
      Entry[] s = sorted();
      int lo = 0;
      int hi = s.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (s[mid].term.compareTo(text) < 0) {
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
      position(lo);
      return term.equals(text) ? SeekStatus.FOUND : SeekStatus.NOT_FOUND;
    }

    @Override
    public void seekExact(long ord) {
      position(Math.toIntExact(ord));
    }

    private void position(int index) {
      Entry e = sorted()[index];
      ord = index;
      term = e.term;
      list = e.postings;
    }

    @Override
    public BytesRef next() {
      Entry[] s = sorted();
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
      return list.size();
    }

    @Override
    public long totalTermFreq() {
      return list.totalTermFreq();
    }

    @Override
    public PostingsEnum postings(PostingsEnum reuse, int flags) {
      return new LivePostingsEnum(list, PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS));
    }

    @Override
    public ImpactsEnum impacts(int flags) {
      return new LivePostingsEnum(list, PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS));
    }
  }
}
