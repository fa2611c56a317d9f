package org.lucenenvm.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.NvmRegion;

/**
 * Makes stores to a byte range of a cache region durable (a persist barrier). Offsets are relative
 * to the region the persister was made for, so the same code runs on an {@link NvmHeap} region
 * (cache-line write-back) and on plain DRAM ({@link #NONE}).
 */
@FunctionalInterface
public interface Persister {
  /** A persister for volatile memory: stores are "durable" as soon as they are made. */
  Persister NONE = (offset, length) -> {};

  /** Makes the stores to {@code [offset, offset + length)} of the region durable. */
  void persist(long offset, long length);

  /** This persister for a sub-region that starts {@code base} bytes into this one. */
  default Persister shifted(long base) {
    return (offset, length) -> persist(base + offset, length);
  }

  /**
   * A persister for {@code region} (a region file of an NVM directory). An I/O failure of its
   * persist becomes an {@link UncheckedIOException}.
   */
  static Persister forRegion(NvmRegion region) {
    return (offset, length) -> {
      try {
        region.persist(offset, length);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot persist cache region bytes at " + offset, e);
      }
    };
  }

  /**
   * A persister for the region of {@code heap} that starts at heap offset {@code regionOffset}. An
   * I/O failure of the heap's persist becomes an {@link UncheckedIOException}.
   */
  static Persister forHeapRegion(NvmHeap heap, long regionOffset) {
    return (offset, length) -> {
      try {
        heap.persist(regionOffset + offset, length);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot persist cache region bytes at " + offset, e);
      }
    };
  }
}
