package org.lucenenvm.store;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A range of a pool file mapped into memory by a {@link PoolBackend}: one segment spanning the
 * range and the persist barrier that makes stores to it durable. The whole pool as opened ({@link
 * PoolBackend#map}), or one more chunk of a pool that grew while open ({@link PoolBackend#mapRange}).
 */
public interface MappedPool extends Closeable {

  /** The mapped range; offset 0 of the segment is the range's first byte. Valid until {@link #close()}. */
  MemorySegment segment();

  /**
   * Makes the stores to {@code [offset, offset + length)} of the range durable: a cache-line write-back on a
   * synchronous (DAX) mapping, {@code msync} on an emulated one.
   */
  void persist(long offset, long length) throws IOException;

  /** True if stores reach persistence with cache write-back alone (MAP_SYNC or real pmem). */
  boolean isSynchronous();

  /** Unmaps the range. Accessing {@link #segment()} afterwards fails. */
  @Override
  void close() throws IOException;
}
