package org.lucenenvm.realtime;

import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Append-only byte slabs of one {@link LiveSegment}: term bytes and posting slices live here
 * instead of in per-term objects. An address is {@code slab << SLAB_SHIFT | offset}; a slice or a
 * term never crosses a slab, so a reader needs one array lookup per slice.
 *
 * <p>Memory model: only the single writer allocates and writes. Slabs are never freed, moved or
 * reused, and the array of slabs is replaced (by a larger copy) through the volatile {@link
 * #slabs} field. A reader reads {@link #slabs()} after it has synchronized with the writer (read
 * the segment's published count or a term's state with acquire semantics); the array it gets is
 * at least as new as the one the writer used for the bytes that synchronization covers, and a
 * newer array is a complete copy published by a volatile store, so both are safe to index.
 */
final class LiveBytePool {
  static final int SLAB_SHIFT = 16;
  static final int SLAB_SIZE = 1 << SLAB_SHIFT;
  static final int SLAB_MASK = SLAB_SIZE - 1;

  private volatile byte[][] slabs = new byte[0][];
  private int slabCount;
  /** Next free address; starts at the end of a (nonexistent) slab so the first allocation adds one. */
  private int next = SLAB_SIZE;
  private int nextSlab = -1;

  byte[][] slabs() {
    return slabs;
  }

  /** Reserves {@code size} contiguous bytes (at most {@link #SLAB_SIZE}) and returns their address. */
  int allocate(int size) {
    if (size > SLAB_SIZE) {
      throw new IllegalArgumentException("allocation of " + size + " bytes exceeds a slab");
    }
    if (next + size > SLAB_SIZE) {
      if (slabCount == (1 << (31 - SLAB_SHIFT))) {
        throw new IllegalStateException("live segment byte pool is full (2 GiB)");
      }
      byte[][] s = slabs;
      if (slabCount == s.length) {
        s = ArrayUtil.growExact(s, ArrayUtil.oversize(slabCount + 1, RamUsageEstimator.NUM_BYTES_OBJECT_REF));
      }
      s[slabCount] = new byte[SLAB_SIZE];
      nextSlab = slabCount++;
      next = 0;
      slabs = s;
    }
    int address = (nextSlab << SLAB_SHIFT) | next;
    next += size;
    return address;
  }

  byte[] slab(int address) {
    return slabs[address >>> SLAB_SHIFT];
  }

  /** Bytes held by the slabs and the slab array. */
  long ramBytesUsed() {
    return (long) slabCount * (SLAB_SIZE + RamUsageEstimator.NUM_BYTES_ARRAY_HEADER)
        + RamUsageEstimator.alignObjectSize(
            RamUsageEstimator.NUM_BYTES_ARRAY_HEADER
                + (long) slabs.length * RamUsageEstimator.NUM_BYTES_OBJECT_REF);
  }
}
