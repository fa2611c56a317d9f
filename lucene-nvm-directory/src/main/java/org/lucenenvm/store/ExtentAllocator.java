package org.lucenenvm.store;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Hands out extents (contiguous, block-aligned byte ranges) of a pool region. The free-space map
 * is volatile: whoever owns the region rebuilds it when the pool opens by marking what its
 * persistent structures reference, so a crash can never leak or double-book space.
 *
 * <p>Allocation is first fit over free ranges kept in address order; adjacent free ranges are
 * coalesced, except across a <em>boundary</em>: the start of each chunk added by {@link #addChunks}
 * (a pool that grew while open, see {@link NvmHeap#grow}), so that no extent spans two mappings. Thread-safe: changes are synchronized; {@link #freeBytes} is a volatile read, so hot
 * paths (a write refused at a pool's flood stage) can check it without taking the lock.
 *
 * <p>An allocation that finds no room asks the {@link Growth} (outside this object's lock) to add
 * space, and tries again as long as it does; after each allocation the growth sees the free bytes
 * left, so that it can grow ahead of need.
 */
final class ExtentAllocator {
  /** Allocation granule: extents start and end on 4 KiB boundaries. */
  static final long BLOCK = 4096;

  /** Adds space to a full allocator; {@link #NONE} never does. */
  interface Growth {
    Growth NONE =
        new Growth() {
          @Override
          public String growFor(long bytes) {
            return "online growth is off";
          }

          @Override
          public void allocated(long freeBytes) {}
        };

    /**
     * Tries to add room for an extent of {@code bytes} (with {@link #addChunks}). Returns null if space
     * was added, otherwise why not, for the {@link PoolFullException}'s message.
     */
    String growFor(long bytes);

    /** Called after each allocation, without the allocator's lock, with the bytes left free. */
    void allocated(long freeBytes);
  }

  private final long regionStart;
  /** End of the region; written under this object's lock. */
  private volatile long regionEnd;
  /** Free ranges, start → end (exclusive). */
  private final TreeMap<Long, Long> free = new TreeMap<>();
  /** Starts of the chunks added by {@link #addChunks}: free ranges never merge across them. */
  private final TreeSet<Long> boundaries = new TreeSet<>();
  /** Sum of the free ranges; written under this object's lock, read without it. */
  private volatile long freeBytes;
  private volatile Growth growth = Growth.NONE;

  /** An allocator over {@code [start, end)} with all of it free. */
  ExtentAllocator(long start, long end) {
    if (start % BLOCK != 0 || end % BLOCK != 0 || start >= end) {
      throw new IllegalArgumentException("bad region [" + start + ", " + end + ")");
    }
    this.regionStart = start;
    this.regionEnd = end;
    free.put(start, end);
    freeBytes = end - start;
  }

  /** Sets what a full allocator asks for space. */
  void setGrowth(Growth growth) {
    this.growth = growth;
  }

  /**
   * Adds the chunks ending beyond the region as free space, each with a boundary at its start, so
   * that no extent spans two. {@code chunkEnds} are the ends of a pool's chunks in order ({@link
   * NvmHeap#chunkEnds}); the region must end at one of them.
   */
  synchronized void addChunks(long[] chunkEnds) {
    long start = chunkEnds[0];
    for (long end : chunkEnds) {
      if (end > regionEnd) {
        if (start != regionEnd || end % BLOCK != 0) {
          throw new IllegalArgumentException(
              "cannot add chunk [" + start + ", " + end + ") to the region [" + regionStart + ", " + regionEnd + ")");
        }
        boundaries.add(start);
        free.put(start, end);
        freeBytes += end - start;
        regionEnd = end;
      }
      start = end;
    }
  }

  static long blocks(long bytes) {
    return (bytes + BLOCK - 1) / BLOCK * BLOCK;
  }

  /**
   * Allocates at least {@code bytes} (rounded up to the granule), growing the region through the
   * {@link Growth} if it has no room; returns the extent's offset.
   *
   * @throws PoolFullException if there is no room and the growth could not add it
   */
  long allocate(long bytes) throws PoolFullException {
    long need = blocks(Math.max(bytes, 1));
    while (true) {
      long offset = allocateNow(need);
      if (offset >= 0) {
        growth.allocated(freeBytes);
        return offset;
      }
      String notGrown = growth.growFor(need);
      if (notGrown != null) {
        throw full(need, notGrown);
      }
    }
  }

  /**
   * Allocates at least {@code bytes} if a free range is that large, without growing the region.
   *
   * @throws PoolFullException if there is no such range
   */
  long allocateWithoutGrowth(long bytes) throws PoolFullException {
    long need = blocks(Math.max(bytes, 1));
    long offset = allocateNow(need);
    if (offset < 0) {
      throw full(need, "the pool does not grow for this allocation");
    }
    return offset;
  }

  /** First fit of {@code need} bytes (a multiple of the granule); -1 if no free range is that large. */
  private synchronized long allocateNow(long need) {
    for (Iterator<Map.Entry<Long, Long>> it = free.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Long> range = it.next();
      long start = range.getKey();
      long end = range.getValue();
      if (end - start >= need) {
        it.remove();
        if (end - start > need) {
          free.put(start + need, end);
        }
        freeBytes -= need;
        return start;
      }
    }
    return -1;
  }

  private PoolFullException full(long need, String notGrown) {
    return new PoolFullException(
        "NVM pool full: cannot allocate "
            + need
            + " bytes; "
            + freeBytes
            + " of "
            + capacity()
            + " bytes free, largest free extent "
            + largestFree()
            + " bytes; "
            + notGrown);
  }

  /**
   * Grows the extent {@code [offset, offset + length)} in place to {@code newLength} if the space
   * right after it is free. Returns false, changing nothing, otherwise.
   */
  synchronized boolean tryExtend(long offset, long length, long newLength) {
    long end = offset + blocks(length);
    long newEnd = offset + blocks(newLength);
    if (newEnd <= end) {
      return true;
    }
    Long freeEnd = free.get(end);
    if (freeEnd == null || freeEnd < newEnd || boundaries.contains(end)) {
      return false;
    }
    free.remove(end);
    if (freeEnd > newEnd) {
      free.put(newEnd, freeEnd);
    }
    freeBytes -= newEnd - end;
    return true;
  }

  /** Returns {@code [offset, offset + length)} (rounded up to the granule) to the free space. */
  synchronized void free(long offset, long length) {
    long start = offset;
    long end = offset + blocks(length);
    if (end == start) {
      return;
    }
    if (start < regionStart || end > regionEnd || start % BLOCK != 0) {
      throw new IllegalArgumentException("extent [" + start + ", " + end + ") is outside the region");
    }
    Map.Entry<Long, Long> before = free.floorEntry(start);
    Map.Entry<Long, Long> after = free.ceilingEntry(start);
    if ((before != null && before.getValue() > start) || (after != null && after.getKey() < end)) {
      throw new IllegalStateException("double free of extent [" + start + ", " + end + ")");
    }
    freeBytes += end - start;
    if (before != null && before.getValue() == start && !boundaries.contains(start)) {
      start = before.getKey();
      free.remove(start);
    }
    if (after != null && after.getKey() == end && !boundaries.contains(end)) {
      end = after.getValue();
      free.remove(after.getKey());
    }
    free.put(start, end);
  }

  /** Marks {@code [offset, offset + length)} as in use; used while rebuilding after open. */
  synchronized void markUsed(long offset, long length) {
    long start = offset;
    long end = offset + blocks(length);
    if (end == start) {
      return;
    }
    Map.Entry<Long, Long> range = free.floorEntry(start);
    if (range == null || range.getValue() < end) {
      throw new IllegalStateException(
          "extent [" + start + ", " + end + ") is referenced twice or lies outside the region");
    }
    long rangeStart = range.getKey();
    long rangeEnd = range.getValue();
    free.remove(rangeStart);
    if (rangeStart < start) {
      free.put(rangeStart, start);
    }
    if (end < rangeEnd) {
      free.put(end, rangeEnd);
    }
    freeBytes -= end - start;
  }

  /** Free bytes now (a volatile read, no lock). */
  long freeBytes() {
    return freeBytes;
  }

  synchronized long largestFree() {
    long largest = 0;
    for (Map.Entry<Long, Long> range : free.entrySet()) {
      largest = Math.max(largest, range.getValue() - range.getKey());
    }
    return largest;
  }

  long capacity() {
    return regionEnd - regionStart;
  }
}
