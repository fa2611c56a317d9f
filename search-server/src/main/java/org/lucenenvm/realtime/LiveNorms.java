package org.lucenenvm.realtime;

import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Norms of one field of a {@link LiveSegment}: one byte per doc while every norm fits a byte (as
 * BM25's and Lucene's other similarities' do), widened once to one long per doc otherwise, plus a
 * bit per doc that has a norm. The single writer sets a doc's norm before the segment publishes
 * it; widening copies every slot and publishes the long array through a volatile field, so a
 * reader that loads {@link #longs} after the segment's fence reads a complete array either way.
 */
final class LiveNorms {
  private final byte[] bytes;
  private volatile long[] longs;
  private final FixedBitSet docs;

  LiveNorms(int capacity) {
    bytes = new byte[capacity];
    docs = new FixedBitSet(capacity);
  }

  void set(int doc, long norm) {
    long[] wide = longs;
    if (wide == null && norm != (byte) norm) {
      wide = new long[bytes.length];
      for (int i = 0; i < bytes.length; i++) {
        wide[i] = bytes[i];
      }
      longs = wide;
    }
    if (wide == null) {
      bytes[doc] = (byte) norm;
    } else {
      wide[doc] = norm;
    }
    docs.set(doc);
  }

  /** Forgets the norm of a doc whose add failed. */
  void clear(int doc) {
    docs.clear(doc);
  }

  boolean has(int doc) {
    return docs.get(doc);
  }

  /** The norm of {@code doc} (which {@link #has} one). */
  long get(int doc) {
    long[] wide = longs;
    return wide == null ? bytes[doc] : wide[doc];
  }

  /** The first doc at or after {@code from} with a norm, below {@code maxDoc}, or -1. */
  int nextDoc(int from, int maxDoc) {
    if (from >= maxDoc) {
      return -1;
    }
    int next = docs.nextSetBit(from);
    return next < maxDoc ? next : -1;
  }

  long ramBytesUsed() {
    long[] wide = longs;
    return RamUsageEstimator.sizeOf(bytes)
        + (wide == null ? 0 : RamUsageEstimator.sizeOf(wide))
        + docs.ramBytesUsed();
  }
}
