package org.lucenenvm.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.zip.CRC32C;

/**
 * Keeps {@link CacheEntry cache entries} in a fixed region (DRAM or a pre-allocated region of the
 * NVM pool) so that a crash or restart never exposes a half-written entry. Entries are addressed by
 * slot numbers; which key lives in which slot is the caller's index (rebuilt from {@link #forEach}
 * after a reopen).
 *
 * <p>Region format (little endian):
 *
 * <pre>
 * Region  --&gt; Magic, SlotCount, Padding, Slot&lt;sup&gt;SlotCount&lt;/sup&gt;, Padding, Heap
 * Magic   --&gt; int64 "NVMRCST1"; SlotCount --&gt; int32; Padding to 16 bytes
 * Slot    --&gt; int64: offset of an entry block in Heap, or 0 for an empty slot
 * Heap    --&gt; a {@link TlsfAllocator} region holding Block per live entry
 * Block   --&gt; BodyLength int32, Crc int32 (CRC-32C of Body), Body ({@link EntryCodec})
 * </pre>
 *
 * <p>Publishing an entry: allocate a block (its header is durable), encode the entry into it, write
 * length and checksum, persist them, then store the block's offset in a free slot with one aligned
 * 8-byte store and persist it. Removing: clear the slot and persist, then free the block (a free
 * persists nothing: a block left allocated by a crash is unreferenced). On open every slot is
 * checked (its offset must be an allocated block whose checksum and encoding check out; otherwise
 * the slot is cleared and the entry dropped), and allocated blocks no slot references (an entry
 * that was being written or removed at the crash) are freed. If the header or the heap does not
 * check out, the whole region is rebuilt empty with a warning.
 *
 * <p>Thread-safe, with one exception: {@link #get} is not synchronized, so that lookups run in
 * parallel; it must not run concurrently with a {@link #put} or {@link #remove} (the owning {@link
 * ResultCache} reads under a read lock and writes under its write lock). Every other method is
 * synchronized.
 */
public final class EntryStore {
  /** Returned by {@link #put} when the entry does not fit: the caller evicts and retries. */
  public static final int NO_SPACE = -1;

  static final long MAGIC = 0x315453435252564EL; // "NVRRCST1" little endian
  private static final String BLANK = "blank region";
  private static final int BLOCK_PREFIX = 8;
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt INT =
      ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);

  private final MemorySegment region;
  private final MemorySegment heapRegion;
  private final long heapStart;
  private final Persister persister;
  private final int slotCount;
  private final TlsfAllocator heap;
  private final int[] freeSlots;
  private int freeSlotCount;
  private final int droppedOnOpen;
  private final String rebuiltReason;

  private EntryStore(MemorySegment region, int slotCount, Persister persister) {
    this.region = region;
    this.persister = persister;
    this.slotCount = slotCount;
    this.heapStart = (slotOffset(slotCount) + 15) & -16L;
    if (slotCount < 1 || heapStart >= region.byteSize()) {
      throw new IllegalArgumentException(
          "cache region of "
              + region.byteSize()
              + " bytes cannot hold "
              + slotCount
              + " slots and a heap");
    }
    this.heapRegion = region.asSlice(heapStart);
    long magic = region.get(LONG, 0);
    String headerProblem =
        magic == 0
            ? BLANK
            : magic != MAGIC
                ? "bad store magic " + Long.toHexString(magic)
                : region.get(INT, 8) != slotCount
                    ? "store has " + region.get(INT, 8) + " slots, " + slotCount + " configured"
                    : null;
    boolean headerValid = headerProblem == null;
    if (!headerValid) {
      heapRegion.set(LONG, 0, 0); // the heap goes with the header: format it too
      persister.persist(heapStart, Long.BYTES);
    }
    this.heap = TlsfAllocator.open(heapRegion, persister.shifted(heapStart));
    this.freeSlots = new int[slotCount];
    if (!headerValid || heap.rebuiltReason() != null) {
      format();
      this.droppedOnOpen = 0;
      this.rebuiltReason = headerValid ? heap.rebuiltReason() : headerProblem;
      if (!BLANK.equals(rebuiltReason)) {
        System.getLogger(EntryStore.class.getName())
            .log(System.Logger.Level.WARNING, "cache region rebuilt empty: " + rebuiltReason);
      }
    } else {
      this.droppedOnOpen = recover();
      this.rebuiltReason = null;
    }
  }

  /**
   * Opens the store over {@code region} with {@code slotCount} entry slots (the most entries it can
   * hold): recovers the entries of a valid store, otherwise formats the region empty.
   */
  public static EntryStore open(MemorySegment region, int slotCount, Persister persister) {
    return new EntryStore(region, slotCount, persister);
  }

  /**
   * Stores {@code entry}, whose {@link EntryCodec#encodedSize} is {@code length}, durably and
   * returns its slot, or {@link #NO_SPACE}. A failed persist is rethrown with the store as it was
   * before the call.
   */
  public synchronized int put(CacheEntry entry, int length) {
    if (freeSlotCount == 0) {
      return NO_SPACE;
    }
    long block = heap.allocate(BLOCK_PREFIX + (long) length);
    if (block == TlsfAllocator.NO_SPACE) {
      return NO_SPACE;
    }
    int slot = -1;
    try {
      ByteBuffer body = heapRegion.asSlice(block + BLOCK_PREFIX, length).asByteBuffer();
      EntryCodec.encode(entry, body);
      if (body.position() != length) {
        throw new IllegalStateException(
            "cache entry encoded to " + body.position() + " bytes, " + length + " expected");
      }
      CRC32C crc = new CRC32C();
      crc.update(body.flip());
      heapRegion.set(INT, block, length);
      heapRegion.set(INT, block + 4, (int) crc.getValue());
      persister.persist(heapStart + block, BLOCK_PREFIX + (long) length);
      slot = freeSlots[--freeSlotCount];
      setSlot(slot, block);
      return slot;
    } catch (RuntimeException e) {
      // not published (or its slot's persist failed): the store goes back to what it held
      if (slot >= 0) {
        region.set(LONG, slotOffset(slot), 0);
        freeSlots[freeSlotCount++] = slot;
      }
      heap.free(block);
      throw e;
    }
  }

  /** The entry in {@code slot}; see the class for what may run concurrently with it. */
  public CacheEntry get(int slot) {
    long block = liveBlock(slot);
    return EntryCodec.decode(bodyOf(block));
  }

  /** Removes the entry in {@code slot} and frees its block. */
  public synchronized void remove(int slot) {
    long block = liveBlock(slot);
    setSlot(slot, 0);
    heap.free(block);
    freeSlots[freeSlotCount++] = slot;
  }

  /** Calls {@code action} with every live slot and its entry, in slot order. */
  public synchronized void forEach(BiConsumer<Integer, CacheEntry> action) {
    for (int slot = 0; slot < slotCount; slot++) {
      long block = slotValue(slot);
      if (block != 0) {
        action.accept(slot, EntryCodec.decode(bodyOf(block)));
      }
    }
  }

  /** Number of live entries. */
  public synchronized int size() {
    return slotCount - freeSlotCount;
  }

  /** Free bytes in the entry heap (block headers included). */
  public synchronized long freeBytes() {
    return heap.freeBytes();
  }

  /** Bytes of the entry heap. */
  public long capacityBytes() {
    return heap.capacity();
  }

  /** Entries found torn or invalid on open and dropped. */
  public int droppedOnOpen() {
    return droppedOnOpen;
  }

  /**
   * Why the region was formatted on open ({@code "blank region"} when new), or null if its entries
   * were recovered.
   */
  public String rebuiltReason() {
    return rebuiltReason;
  }

  // ---- open ----

  private void format() {
    region.set(LONG, 0, 0);
    persister.persist(0, Long.BYTES);
    for (int slot = 0; slot < slotCount; slot++) {
      region.set(LONG, slotOffset(slot), 0);
    }
    region.set(INT, 8, slotCount);
    region.set(INT, 12, 0);
    persister.persist(8, slotOffset(slotCount) - 8);
    region.set(LONG, 0, MAGIC);
    persister.persist(0, Long.BYTES);
    freeSlotCount = 0;
    for (int slot = slotCount - 1; slot >= 0; slot--) {
      freeSlots[freeSlotCount++] = slot;
    }
  }

  private int recover() {
    Set<Long> unreferenced = new HashSet<>();
    heap.forEachAllocated(unreferenced::add);
    int dropped = 0;
    freeSlotCount = 0;
    for (int slot = slotCount - 1; slot >= 0; slot--) {
      long block = slotValue(slot);
      boolean live = block != 0 && unreferenced.contains(block) && isValidEntry(block);
      if (live) {
        unreferenced.remove(block);
      } else {
        if (block != 0) {
          setSlot(slot, 0);
          dropped++;
        }
        freeSlots[freeSlotCount++] = slot;
      }
    }
    for (long block : unreferenced) {
      heap.free(block);
    }
    // after a process crash, cleared slots may be in memory only: make them durable before the
    // blocks they referenced are reused, or a later power failure could bring them back
    persister.persist(slotOffset(0), (long) slotCount * Long.BYTES);
    if (dropped > 0) {
      System.getLogger(EntryStore.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "cache region: dropped " + dropped + " torn or invalid entries");
    }
    return dropped;
  }

  private boolean isValidEntry(long block) {
    int length = heapRegion.get(INT, block);
    if (length < 0 || length > heap.usableSize(block) - BLOCK_PREFIX) {
      return false;
    }
    ByteBuffer body = bodyOf(block);
    CRC32C crc = new CRC32C();
    crc.update(body.duplicate());
    if ((int) crc.getValue() != heapRegion.get(INT, block + 4)) {
      return false;
    }
    try {
      EntryCodec.decode(body);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  // ---- slots and blocks ----

  private long liveBlock(int slot) {
    long block = slot >= 0 && slot < slotCount ? slotValue(slot) : 0;
    if (block == 0) {
      throw new IllegalArgumentException("cache slot " + slot + " holds no entry");
    }
    return block;
  }

  private ByteBuffer bodyOf(long block) {
    int length = heapRegion.get(INT, block);
    return heapRegion.asSlice(block + BLOCK_PREFIX, length).asByteBuffer();
  }

  private long slotValue(int slot) {
    return region.get(LONG, slotOffset(slot));
  }

  private void setSlot(int slot, long block) {
    region.set(LONG, slotOffset(slot), block);
    persister.persist(slotOffset(slot), Long.BYTES);
  }

  private static long slotOffset(int slot) {
    return 16 + (long) slot * Long.BYTES;
  }
}
