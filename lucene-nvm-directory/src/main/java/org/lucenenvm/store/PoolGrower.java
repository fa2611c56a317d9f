package org.lucenenvm.store;

import java.io.IOException;
import java.util.logging.Logger;

/**
 * Grows an {@link NvmDirectory}'s open pool as its {@link PoolGrowth} says: the {@link
 * ExtentAllocator.Growth} of the directory's allocator. A growth maps the new range as one more
 * chunk ({@link NvmHeap#grow}), then adds it to the allocator as free space with a boundary at its
 * start, so that nothing is allocated there before the new size is durable. Chunks added by
 * another caller of {@link NvmHeap#grow} are taken on at the next growth.
 *
 * <p>Growths are serialized by this object's lock, taken without the allocator's lock (which
 * allocations, frees and extensions on other threads keep using meanwhile) and possibly inside the
 * directory's metadata lock (a file table that needs a new block): the lock order is metadata,
 * grower, heap, allocator. Readers take no lock: the mappings they read are never moved.
 *
 * <p>The file system's usable space comes from a {@link FileSystemRoom}, read at most once per
 * interval: an allocation below the watermark of a pool that cannot grow makes no system call.
 */
final class PoolGrower implements ExtentAllocator.Growth {
  private static final Logger LOG = Logger.getLogger(PoolGrower.class.getName());

  private final NvmHeap heap;
  private final ExtentAllocator allocator;
  private final PoolGrowth policy;
  private final FileSystemRoom fileSystem;

  PoolGrower(NvmHeap heap, ExtentAllocator allocator, PoolGrowth policy, FileSystemRoom fileSystem) {
    this.heap = heap;
    this.allocator = allocator;
    this.policy = policy;
    this.fileSystem = fileSystem;
  }

  /**
   * Bytes the pool can still grow by now: up to its maximum, and as far as the file system keeps
   * its margin usable (as of the {@link FileSystemRoom}'s last reading); 0 at the maximum or while
   * the file system's room is unknown. A multiple of the allocation granule; takes no lock.
   */
  long growableBytes() {
    long toMax = maxBytes() - heap.size();
    if (toMax <= 0) {
      return 0;
    }
    try {
      return Math.min(toMax, roomAbove(fileSystem.usable(heap)));
    } catch (IOException e) {
      return 0;
    }
  }

  private long maxBytes() {
    return policy.maxBytes() / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK;
  }

  /** What {@code usable} bytes of the file system leave for the pool beyond the margin, in whole blocks. */
  private long roomAbove(long usable) {
    return Math.max(0, usable - policy.fileSystemMarginBytes()) / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK;
  }

  @Override
  public synchronized String growFor(long bytes) {
    if (allocator.largestFree() >= bytes) {
      return null; // another thread grew the pool meanwhile
    }
    return growBy(Math.max(policy.stepBytes(), bytes));
  }

  @Override
  public void allocated(long freeBytes) {
    if (!belowWatermark(freeBytes) || heap.size() >= policy.maxBytes()) {
      return;
    }
    synchronized (this) {
      if (belowWatermark(allocator.freeBytes())) {
        growBy(policy.stepBytes()); // ahead of need: a refusal is left to the allocation that fails
      }
    }
  }

  private boolean belowWatermark(long freeBytes) {
    return freeBytes < heap.size() / 100 * policy.freeWatermarkPercent();
  }

  /** Grows the pool by up to {@code bytes}; null if it grew, otherwise why not. */
  private String growBy(long bytes) {
    long size = heap.size();
    long target = Math.min(maxBytes(), size + ExtentAllocator.blocks(bytes));
    if (target <= size) {
      return "the pool is at its maximum size of " + policy.maxBytes() + " bytes";
    }
    long usable;
    try {
      usable = fileSystem.usable(heap);
    } catch (IOException e) {
      return "the usable space of the file system holding " + heap.path() + " is unknown (" + e + ")";
    }
    target = size + Math.min(target - size, roomAbove(usable));
    if (target <= size) {
      return "the file system holding "
          + heap.path()
          + " has "
          + usable
          + " bytes usable, and the pool leaves "
          + policy.fileSystemMarginBytes()
          + " of them free";
    }
    try {
      heap.grow(target);
    } catch (IOException e) {
      return "growing it from " + size + " to " + target + " bytes failed (" + e.getMessage() + ")";
    }
    allocator.addChunks(heap.chunkEnds()); // the new chunk, and any a caller of heap.grow added
    long grownTo = target;
    LOG.info(() -> "NVM pool " + heap.path() + " grew while open from " + size + " to " + grownTo + " bytes");
    return null;
  }
}
