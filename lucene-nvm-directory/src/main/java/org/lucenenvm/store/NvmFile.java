package org.lucenenvm.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A closed file of an {@link NvmDirectory}: its extents in the pool and its length. Reference
 * counted: the directory's file table holds one reference and every open input one more; when the
 * last reference is released the file stops naming its extents ({@link SharedExtents}), and each
 * extent that no other file (a clone, see {@link #share}) names goes back to the allocator. So
 * deleting a file that a reader still has open is safe, and so is deleting one of several files
 * sharing extents.
 */
final class NvmFile {
  private final long[] offsets;
  private final long[] lengths;
  private final long length;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile boolean persisted;
  private volatile boolean published;

  /**
   * @param offsets start of each extent in the pool
   * @param lengths bytes of the file held by each extent (each extent is allocated rounded up to
   *     {@link ExtentAllocator#BLOCK})
   * @param durable whether the file is read from the published file table (persisted and
   *     published) rather than just written
   */
  NvmFile(long[] offsets, long[] lengths, boolean durable) {
    this(offsets, lengths, durable, durable);
  }

  private NvmFile(long[] offsets, long[] lengths, boolean persisted, boolean published) {
    this.offsets = offsets;
    this.lengths = lengths;
    long total = 0;
    for (long l : lengths) {
      total += l;
    }
    this.length = total;
    this.persisted = persisted;
    this.published = published;
  }

  /**
   * A new file naming exactly this file's extents (a clone: same bytes, none copied). It is
   * persisted if this file's bytes already are, since they are the same bytes; otherwise its own
   * {@link #persist} persists them. Never published yet: a table naming it must still be published.
   */
  NvmFile share() {
    return new NvmFile(offsets, lengths, persisted, false);
  }

  long length() {
    return length;
  }

  int extentCount() {
    return offsets.length;
  }

  long extentOffset(int i) {
    return offsets[i];
  }

  long extentLength(int i) {
    return lengths[i];
  }

  boolean isPersisted() {
    return persisted;
  }

  /**
   * True once a published file table names this file: only then has a sync of it completed. A
   * persisted file is not yet durable, since a crash brings back the previous table.
   */
  boolean isPublished() {
    return published;
  }

  /** Records that a file table naming this file has been published. */
  void markPublished() {
    published = true;
  }

  /** Persists the file's bytes (once); afterwards it may be listed in the durable file table. */
  void persist(NvmHeap heap) throws IOException {
    if (persisted) {
      return;
    }
    for (int i = 0; i < offsets.length; i++) {
      heap.persist(offsets[i], lengths[i]);
    }
    persisted = true;
  }

  /** Takes a reference for an input; false if the file was already released. */
  boolean tryIncRef() {
    int count;
    do {
      count = refs.get();
      if (count == 0) {
        return false;
      }
    } while (!refs.compareAndSet(count, count + 1));
    return true;
  }

  /** Drops a reference; the last one releases the file's extents to {@code extents}. */
  void decRef(SharedExtents extents) {
    if (refs.decrementAndGet() == 0) {
      extents.release(this);
    }
  }
}
