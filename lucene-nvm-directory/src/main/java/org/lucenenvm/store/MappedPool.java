package org.lucenenvm.store;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A pool file mapped into memory by a {@link PoolBackend}: one segment spanning the whole pool and
 * the persist barrier that makes stores to it durable.
 */
public interface MappedPool extends Closeable {

  /** The whole pool, from offset 0 to its size. Valid until {@link #close()}. */
  MemorySegment segment();

  /**
   * Makes the stores to {@code [offset, offset + length)} durable: a cache-line write-back on a
   * synchronous (DAX) mapping, {@code msync} on an emulated one.
   */
  void persist(long offset, long length) throws IOException;

  /** True if stores reach persistence with cache write-back alone (MAP_SYNC or real pmem). */
  boolean isSynchronous();

  /** Unmaps the pool. Accessing {@link #segment()} afterwards fails. */
  @Override
  void close() throws IOException;
}
