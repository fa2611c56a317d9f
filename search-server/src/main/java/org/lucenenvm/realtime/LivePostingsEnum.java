package org.lucenenvm.realtime;

import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.util.BytesRef;

/** Iterates one {@link LivePostingList.View}: docs ascending, with freqs and positions. */
final class LivePostingsEnum extends PostingsEnum {
  private final LivePostingList.View postings;
  private final boolean positions;
  private int index = -1;
  private int doc = -1;
  private int nextPosition;

  LivePostingsEnum(LivePostingList.View postings, boolean positions) {
    this.postings = postings;
    this.positions = positions && postings.posStarts() != null;
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() {
    return moveTo(index + 1);
  }

  @Override
  public int advance(int target) {
    int[] docs = postings.docs();
    int size = postings.size();
    int lo = index + 1;
    int step = 1;
    int hi = lo;
    while (hi < size && docs[hi] < target) {
      lo = hi + 1;
      hi += step;
      step <<= 1;
    }
    hi = Math.min(hi, size);
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (docs[mid] < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return moveTo(lo);
  }

  private int moveTo(int i) {
    index = i;
    if (i >= postings.size()) {
      doc = NO_MORE_DOCS;
    } else {
      doc = postings.docs()[i];
      if (positions) {
        nextPosition = postings.posStarts()[i];
      }
    }
    return doc;
  }

  @Override
  public int freq() {
    return postings.freq(index);
  }

  @Override
  public int nextPosition() {
    return positions ? postings.positions()[nextPosition++] : -1;
  }

  @Override
  public int startOffset() {
    return -1;
  }

  @Override
  public int endOffset() {
    return -1;
  }

  @Override
  public BytesRef getPayload() {
    return null;
  }

  @Override
  public long cost() {
    return postings.size();
  }
}
