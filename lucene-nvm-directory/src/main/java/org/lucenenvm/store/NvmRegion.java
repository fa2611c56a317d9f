package org.lucenenvm.store;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A durable file of an {@link NvmDirectory} that its owner updates in place: one contiguous
 * extent of the pool, written with stores and made durable with {@link #persist}. Unlike a Lucene
 * file, whose bytes never change once synced, a region is for structures that manage their own
 * crash consistency (a circular log, for instance); the directory only guarantees that the extent
 * stays allocated to the file, across restarts, until the file is deleted.
 *
 * <p>Obtained from {@link NvmDirectory#createRegion} or {@link NvmDirectory#openRegion}. Holds a
 * reference to the file like an open input: deleting the file frees its extent only after the
 * region is closed.
 */
public final class NvmRegion implements Closeable {
  private final NvmHeap heap;
  private final String name;
  private final long poolOffset;
  private final MemorySegment segment;
  private final Runnable release;
  private boolean closed;

  NvmRegion(NvmHeap heap, String name, long poolOffset, long length, Runnable release) {
    this.heap = heap;
    this.name = name;
    this.poolOffset = poolOffset;
    this.segment = heap.segment(poolOffset, length);
    this.release = release;
  }

  /** The file's name in its directory. */
  public String name() {
    return name;
  }

  /** The pool file the region lives in (for messages). */
  public java.nio.file.Path poolPath() {
    return heap.path();
  }

  /** Offset of the region's first byte in the pool (for messages). */
  public long poolOffset() {
    return poolOffset;
  }

  /** The region's bytes, writable; valid while the pool is open. */
  public MemorySegment segment() {
    return segment;
  }

  /** Length of the region in bytes. */
  public long length() {
    return segment.byteSize();
  }

  /** Makes the stores to {@code [offset, offset + length)} of the region durable. */
  public void persist(long offset, long length) throws IOException {
    if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
      throw new IndexOutOfBoundsException(
          "persist [" + offset + ", " + (offset + length) + ") outside region " + name + " of " + segment.byteSize() + " bytes");
    }
    heap.persist(poolOffset + offset, length);
  }

  /** Releases the region's reference to its file. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      release.run();
    }
  }

  @Override
  public String toString() {
    return "NvmRegion(" + heap.path() + ":" + name + ", pool offset " + poolOffset + ", " + segment.byteSize() + " bytes)";
  }
}
