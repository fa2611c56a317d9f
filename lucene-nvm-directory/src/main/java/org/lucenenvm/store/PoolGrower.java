package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
final class PoolGrower implements ExtentAllocator.Growth {
  private static final Logger LOG = Logger.getLogger(PoolGrower.class.getName());

  /** The usable bytes of the file system holding a file. */
  @FunctionalInterface
  interface UsableSpace {
    UsableSpace FILE_STORE = file -> Files.getFileStore(file).getUsableSpace();

    long of(Path file) throws IOException;
  }

  private final NvmHeap heap;
  private final ExtentAllocator allocator;
  private final PoolGrowth policy;
  private final UsableSpace usableSpace;

  PoolGrower(NvmHeap heap, ExtentAllocator allocator, PoolGrowth policy, UsableSpace usableSpace) {
    this.heap = heap;
    this.allocator = allocator;
    this.policy = policy;
    this.usableSpace = usableSpace;
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
    long max = policy.maxBytes() / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK;
    long target = Math.min(max, size + ExtentAllocator.blocks(bytes));
    if (target <= size) {
      return "the pool is at its maximum size of " + policy.maxBytes() + " bytes";
    }
    long usable;
    try {
      usable = usableSpace.of(heap.path());
    } catch (IOException e) {
      return "the usable space of the file system holding " + heap.path() + " is unknown (" + e + ")";
    }
    long room = Math.max(0, usable - policy.fileSystemMarginBytes()) / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK;
    if (room < target - size) {
      target = size + room;
    }
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
