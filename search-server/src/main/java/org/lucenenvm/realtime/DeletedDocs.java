package org.lucenenvm.realtime;

import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * The deletions of one segment, immutable: a delete makes a new instance (copy on write), so a
 * query keeps the deletions it started with while deletes keep coming.
 *
 * @param live bit set per doc, set when the doc is live; docs beyond the segment's current size
 *     are set
 * @param count number of deleted docs
 */
record DeletedDocs(FixedBitSet live, int count) {

  /** The deletions after deleting {@code doc} from {@code previous} (null = none yet). */
  static DeletedDocs delete(DeletedDocs previous, int doc, int capacity) {
    FixedBitSet bits;
    if (previous == null) {
      bits = new FixedBitSet(capacity);
      bits.set(0, capacity);
    } else {
      bits = previous.live.clone();
    }
    if (!bits.get(doc)) {
      throw new IllegalStateException("doc " + doc + " is already deleted");
    }
    bits.clear(doc);
    return new DeletedDocs(bits, previous == null ? 1 : previous.count + 1);
  }

  boolean isLive(int doc) {
    return live.get(doc);
  }

  /** Live docs as Lucene sees them for a segment of {@code maxDoc} docs. */
  Bits liveDocs(int maxDoc) {
    if (maxDoc == live.length()) {
      return live;
    }
    return new Bits() {
      @Override
      public boolean get(int index) {
        return live.get(index);
      }

      @Override
      public int length() {
        return maxDoc;
      }
    };
  }
}
