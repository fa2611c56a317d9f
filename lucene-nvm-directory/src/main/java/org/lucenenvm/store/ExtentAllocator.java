package org.lucenenvm.store;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Hands out extents (contiguous, block-aligned byte ranges) of a pool region. The free-space map
 * is volatile: whoever owns the region rebuilds it when the pool opens by marking what its
 * persistent structures reference, so a crash can never leak or double-book space.
 *
 * <p>Allocation is first fit over free ranges kept in address order; adjacent free ranges are
 * coalesced. Thread-safe: changes are synchronized; {@link #freeBytes} is a volatile read, so hot
 * paths (a write refused at a pool's flood stage) can check it without taking the lock.
 */
final class ExtentAllocator {
  /** Allocation granule: extents start and end on 4 KiB boundaries. */
  static final long BLOCK = 4096;

  private final long regionStart;
  private final long regionEnd;
  /** Free ranges, start → end (exclusive). */
  private final TreeMap<Long, Long> free = new TreeMap<>();
  /** Sum of the free ranges; written under this object's lock, read without it. */
  private volatile long freeBytes;

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

  static long blocks(long bytes) {
    return (bytes + BLOCK - 1) / BLOCK * BLOCK;
  }

  /** Allocates at least {@code bytes} (rounded up to the granule); returns the extent's offset. */
  synchronized long allocate(long bytes) throws PoolFullException {
    long need = blocks(Math.max(bytes, 1));
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
    throw new PoolFullException(
        "NVM pool full: cannot allocate "
            + need
            + " bytes; "
            + freeBytes
            + " of "
            + (regionEnd - regionStart)
            + " bytes free, largest free extent "
            + largestFree()
            + " bytes");
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
    if (freeEnd == null || freeEnd < newEnd) {
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
    if (before != null && before.getValue() == start) {
      start = before.getKey();
      free.remove(start);
    }
    if (after != null && after.getKey() == end) {
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
