package org.lucenenvm.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Two-Level Segregated Fit allocator (Masmano et al.) over a fixed region: O(1) allocate and free,
 * blocks split on allocation and coalesced with free neighbours on free. Offsets are relative to
 * the region, so the region may live in an NVM pool and be reopened at another address.
 *
 * <p>Region format (little endian):
 *
 * <pre>
 * Region  --&gt; Magic, RegionSize, Block&lt;sup&gt;N&lt;/sup&gt;
 * Magic   --&gt; int64 "TLSFRGN1"; written last when a region is formatted
 * Block   --&gt; SizeAndFlags, PrevPhysical, Payload
 * SizeAndFlags --&gt; int64: block size in bytes (header included, a multiple of 16) | USED (bit 0)
 * PrevPhysical --&gt; int64: offset of the physically previous block (repaired on open)
 * Payload --&gt; size - 16 bytes; a free block keeps its free-list links in its first 16 bytes
 * </pre>
 *
 * <p>The durable truth is the chain of {@code SizeAndFlags} words, each changed by one aligned
 * 8-byte store. Only an allocation shrinks a block or marks it used, and it persists that at once;
 * a free only marks a block free and grows blocks over free neighbours, and persists nothing. So
 * between two persists every header can only grow, and whatever values of those words a crash
 * leaves, the chain still tiles the region: a live block is on it with its exact size, and a header
 * left stale by an unpersisted free can only be reached inside what is now a free block. The only
 * words written inside a free block are its list links, 16 bytes into it, where no header can be
 * (blocks are at least 32 bytes); a split's remainder header replaces any stale
 * one at its place with one that ends where the free block ends; {@code PrevPhysical} words are 8
 * bytes past a header. An allocation persists the remainder's header, then the block's own, and
 * only then links the remainder (its links would otherwise overwrite a stale header the block's
 * old size still reaches) and returns the block, whose payload the caller writes. After a crash a
 * freed block may still be allocated: an owner that references blocks durably frees the
 * unreferenced ones on open, as {@link EntryStore} does. Free lists, bitmaps and {@code
 * PrevPhysical} words are rebuilt on open, and free neighbours left by a crash are merged then. A
 * region whose magic, size or block chain does not check out is formatted empty, with a warning:
 * it is never served.
 *
 * <p>As in TLSF, a request is rounded up to the next second-level size class before the search, so
 * it may get {@link #NO_SPACE} while a free block of exactly the requested size remains (bounded
 * internal fragmentation in exchange for O(1) search).
 *
 * <p>Not thread-safe: the owner serializes calls.
 */
public final class TlsfAllocator {
  /** Returned by {@link #allocate} when no free block is large enough: the caller must evict. */
  public static final long NO_SPACE = -1;

  static final long MAGIC = 0x314E4752464C5354L; // "TLSFRGN1" little endian
  static final int REGION_HEADER = 16;
  static final int BLOCK_HEADER = 16;
  static final int ALIGN = 16;
  static final int MIN_BLOCK = BLOCK_HEADER + 16;
  private static final long USED = 1;
  private static final long NONE = -1;
  private static final String BLANK = "blank region";

  private static final int ALIGN_LOG2 = 4;
  private static final int SL_LOG2 = 4;
  private static final int SL_COUNT = 1 << SL_LOG2;
  private static final int FL_SHIFT = SL_LOG2 + ALIGN_LOG2;
  private static final long SMALL_BLOCK = 1L << FL_SHIFT;
  private static final int FL_COUNT = 64 - FL_SHIFT + 1;

  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

  private final MemorySegment region;
  private final Persister persister;
  private final long end;
  private final long[] freeHeads = new long[FL_COUNT * SL_COUNT];
  private final int[] slBitmaps = new int[FL_COUNT];
  private long flBitmap;
  private long freeBytes;
  private final String rebuiltReason;

  private TlsfAllocator(MemorySegment region, Persister persister) {
    if (region.byteSize() < REGION_HEADER + MIN_BLOCK) {
      throw new IllegalArgumentException(
          "cache region must hold at least "
              + (REGION_HEADER + MIN_BLOCK)
              + " bytes, got "
              + region.byteSize());
    }
    this.region = region;
    this.persister = persister;
    this.end = REGION_HEADER + (region.byteSize() - REGION_HEADER) / ALIGN * ALIGN;
    Arrays.fill(freeHeads, NONE);
    String problem = recover();
    if (problem != null) {
      format();
    }
    this.rebuiltReason = problem;
  }

  /**
   * Opens the allocator over {@code region}: recovers its blocks if the region holds a valid
   * allocator of the same size, otherwise formats it empty (with a warning unless the region was
   * blank). See {@link #rebuiltReason()}.
   */
  public static TlsfAllocator open(MemorySegment region, Persister persister) {
    TlsfAllocator allocator = new TlsfAllocator(region, persister);
    if (allocator.rebuiltReason != null && !allocator.rebuiltReason.equals(BLANK)) {
      System.getLogger(TlsfAllocator.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "cache region rebuilt empty: " + allocator.rebuiltReason);
    }
    return allocator;
  }

  /**
   * Why the region was formatted on open ({@code "blank region"} for a never-used one), or null if
   * its blocks were recovered.
   */
  public String rebuiltReason() {
    return rebuiltReason;
  }

  /**
   * Allocates a block with at least {@code bytes} usable bytes and returns its payload offset
   * (16-byte aligned), or {@link #NO_SPACE}. The new block's header is durable on return. If a
   * persist fails, the allocator is left as it was before the call and the failure is rethrown.
   */
  public long allocate(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("allocation size must be positive, got " + bytes);
    }
    if (bytes > end) {
      return NO_SPACE;
    }
    long need = Math.max(MIN_BLOCK, alignUp(bytes + BLOCK_HEADER));
    long block = findSuitable(need);
    if (block == NONE) {
      return NO_SPACE;
    }
    unlinkFree(block);
    long size = sizeOf(block);
    long rest = NONE;
    try {
      if (size - need >= MIN_BLOCK) {
        rest = block + need;
        writeHeader(rest, size - need, false);
        setPrevPhysical(rest, block);
        persistHeader(rest);
        setNextsPrevPhysical(rest);
      }
      writeHeader(block, rest == NONE ? size : need, true);
      persistHeader(block);
    } catch (RuntimeException e) {
      // the durable chain tiles whichever of these stores reached it; memory goes back as it was
      writeHeader(block, size, false);
      setNextsPrevPhysical(block);
      linkFree(block);
      throw e;
    }
    if (rest != NONE) {
      linkFree(rest); // only now that durable headers cover the memory its links go into
    }
    return block + BLOCK_HEADER;
  }

  /**
   * Frees the block whose payload starts at {@code payload} and coalesces it with free neighbours.
   * Persists nothing (see the class): after a crash the block may still be allocated.
   */
  public void free(long payload) {
    long block = payload - BLOCK_HEADER;
    if (block < REGION_HEADER
        || block >= end
        || (block - REGION_HEADER) % ALIGN != 0
        || !isUsed(block)) {
      throw new IllegalArgumentException("not an allocated block: payload offset " + payload);
    }
    long size = sizeOf(block);
    writeHeader(block, size, false);
    long next = block + size;
    if (next < end && !isUsed(next)) {
      unlinkFree(next);
      size += sizeOf(next);
      writeHeader(block, size, false);
    }
    if (block > REGION_HEADER) {
      long prev = prevPhysical(block);
      if (!isUsed(prev)) {
        unlinkFree(prev);
        size += sizeOf(prev);
        block = prev;
        writeHeader(block, size, false);
      }
    }
    setNextsPrevPhysical(block);
    linkFree(block);
  }

  /** The usable bytes of the allocated block whose payload starts at {@code payload}. */
  public long usableSize(long payload) {
    return sizeOf(payload - BLOCK_HEADER) - BLOCK_HEADER;
  }

  /** Bytes in free blocks, headers included. */
  public long freeBytes() {
    return freeBytes;
  }

  /** Bytes the blocks tile: the region minus its header. */
  public long capacity() {
    return end - REGION_HEADER;
  }

  /** Calls {@code action} with the payload offset of every allocated block, in address order. */
  public void forEachAllocated(LongConsumer action) {
    for (long block = REGION_HEADER; block < end; block += sizeOf(block)) {
      if (isUsed(block)) {
        action.accept(block + BLOCK_HEADER);
      }
    }
  }

  /** Number of free blocks (walks the region; for tests and diagnostics). */
  int freeBlockCount() {
    int count = 0;
    for (long block = REGION_HEADER; block < end; block += sizeOf(block)) {
      if (!isUsed(block)) {
        count++;
      }
    }
    return count;
  }

  // ---- open: validate the block chain, rebuild the free lists ----

  private String recover() {
    long magic = region.get(LONG, 0);
    if (magic != MAGIC) {
      return magic == 0 ? BLANK : "bad magic " + Long.toHexString(magic);
    }
    if (region.get(LONG, 8) != region.byteSize()) {
      return "region size " + region.get(LONG, 8) + " recorded, " + region.byteSize() + " given";
    }
    for (long block = REGION_HEADER; block < end; ) {
      long size = sizeOf(block);
      if (size < MIN_BLOCK || size % ALIGN != 0 || size > end - block) {
        return "block at offset " + block + " has invalid size " + size;
      }
      block += size;
    }
    long prev = NONE;
    for (long block = REGION_HEADER; block < end; ) {
      long size = sizeOf(block);
      long next = block + size;
      if (!isUsed(block) && next < end && !isUsed(next)) {
        size += sizeOf(next); // free neighbours left by an interrupted free
        writeHeader(block, size, false);
        persistHeader(block);
        continue;
      }
      setPrevPhysical(block, prev);
      if (!isUsed(block)) {
        linkFree(block);
      }
      prev = block;
      block = next;
    }
    return null;
  }

  private void format() {
    Arrays.fill(freeHeads, NONE);
    Arrays.fill(slBitmaps, 0);
    flBitmap = 0;
    freeBytes = 0;
    region.set(LONG, 0, 0);
    persister.persist(0, Long.BYTES);
    writeHeader(REGION_HEADER, end - REGION_HEADER, false);
    setPrevPhysical(REGION_HEADER, NONE);
    region.set(LONG, 8, region.byteSize());
    persister.persist(8, Long.BYTES + BLOCK_HEADER);
    region.set(LONG, 0, MAGIC);
    persister.persist(0, Long.BYTES);
    linkFree(REGION_HEADER);
  }

  // ---- block headers ----

  private long sizeOf(long block) {
    return region.get(LONG, block) & ~(ALIGN - 1L);
  }

  private boolean isUsed(long block) {
    return (region.get(LONG, block) & USED) != 0;
  }

  private void writeHeader(long block, long size, boolean used) {
    region.set(LONG, block, size | (used ? USED : 0));
  }

  private void persistHeader(long block) {
    persister.persist(block, Long.BYTES);
  }

  private long prevPhysical(long block) {
    return region.get(LONG, block + 8);
  }

  private void setPrevPhysical(long block, long prev) {
    region.set(LONG, block + 8, prev);
  }

  private void setNextsPrevPhysical(long block) {
    long next = block + sizeOf(block);
    if (next < end) {
      setPrevPhysical(next, block);
    }
  }

  // ---- segregated free lists ----

  private long findSuitable(long need) {
    long rounded = need >= SMALL_BLOCK ? need + (1L << (floorLog2(need) - SL_LOG2)) - 1 : need;
    int fl = firstLevel(rounded);
    if (fl >= FL_COUNT) {
      return NONE;
    }
    int sl = secondLevel(rounded, fl);
    int slMap = slBitmaps[fl] & (-1 << sl);
    if (slMap == 0) {
      long flMap = fl + 1 >= FL_COUNT ? 0 : flBitmap & (-1L << (fl + 1));
      if (flMap == 0) {
        return NONE;
      }
      fl = Long.numberOfTrailingZeros(flMap);
      slMap = slBitmaps[fl];
    }
    return freeHeads[fl * SL_COUNT + Integer.numberOfTrailingZeros(slMap)];
  }

  private void linkFree(long block) {
    long size = sizeOf(block);
    int fl = firstLevel(size);
    int sl = secondLevel(size, fl);
    int list = fl * SL_COUNT + sl;
    long head = freeHeads[list];
    setNextFree(block, head);
    setPrevFree(block, NONE);
    if (head != NONE) {
      setPrevFree(head, block);
    }
    freeHeads[list] = block;
    slBitmaps[fl] |= 1 << sl;
    flBitmap |= 1L << fl;
    freeBytes += size;
  }

  private void unlinkFree(long block) {
    long size = sizeOf(block);
    int fl = firstLevel(size);
    int sl = secondLevel(size, fl);
    int list = fl * SL_COUNT + sl;
    long next = nextFree(block);
    long prev = prevFree(block);
    if (prev != NONE) {
      setNextFree(prev, next);
    } else {
      freeHeads[list] = next;
    }
    if (next != NONE) {
      setPrevFree(next, prev);
    }
    if (freeHeads[list] == NONE) {
      slBitmaps[fl] &= ~(1 << sl);
      if (slBitmaps[fl] == 0) {
        flBitmap &= ~(1L << fl);
      }
    }
    freeBytes -= size;
  }

  private long nextFree(long block) {
    return region.get(LONG, block + BLOCK_HEADER);
  }

  private void setNextFree(long block, long next) {
    region.set(LONG, block + BLOCK_HEADER, next);
  }

  private long prevFree(long block) {
    return region.get(LONG, block + BLOCK_HEADER + 8);
  }

  private void setPrevFree(long block, long prev) {
    region.set(LONG, block + BLOCK_HEADER + 8, prev);
  }

  private static int firstLevel(long size) {
    return size < SMALL_BLOCK ? 0 : floorLog2(size) - FL_SHIFT + 1;
  }

  private static int secondLevel(long size, int fl) {
    if (fl == 0) {
      return (int) (size >>> ALIGN_LOG2);
    }
    return (int) (size >>> (floorLog2(size) - SL_LOG2)) ^ SL_COUNT;
  }

  private static int floorLog2(long value) {
    return 63 - Long.numberOfLeadingZeros(value);
  }

  private static long alignUp(long value) {
    return (value + ALIGN - 1) & -ALIGN;
  }
}
