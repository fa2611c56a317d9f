package org.lucenenvm.cache;

import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolPaths;

public class EntryStoreTest extends LuceneTestCase {
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

  private static MemorySegment region(long bytes) {
    return Arena.ofAuto().allocate(bytes, 16);
  }

  static QueryKey key(QueryKey.Operator operator, String... terms) {
    List<Term> body = new ArrayList<>();
    for (String term : terms) {
      body.add(new Term("body", term));
    }
    return new QueryKey(operator, body);
  }

  private static ResultList hits(Random random, int count, int segments) {
    List<ScoredDoc> hits = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      hits.add(
          new ScoredDoc(random.nextInt(segments), random.nextInt(100_000), random.nextFloat() * 10));
    }
    return new ResultList(count + random.nextInt(1000), random.nextBoolean(), hits);
  }

  private static CacheEntry entry(Random random, int i) {
    int hitCount = random.nextInt(20);
    List<SegmentTag> tags = new ArrayList<>();
    for (int t = 1 + random.nextInt(4); t > 0; t--) {
      tags.add(new SegmentTag(random.nextInt(4), random.nextInt(1000), random.nextInt(5)));
    }
    int k = 20;
    if (random.nextBoolean()) {
      return new CacheEntry(
          key(QueryKey.Operator.OR, "t" + i, "u" + i),
          k,
          random.nextInt(1_000_000),
          tags,
          hits(random, hitCount, tags.size()),
          List.of(hits(random, hitCount, tags.size()), hits(random, hitCount, tags.size())));
    }
    return new CacheEntry(
        key(QueryKey.Operator.AND, "t" + i, "u" + i),
        k,
        random.nextInt(1_000_000),
        tags,
        hits(random, hitCount, tags.size()),
        List.of());
  }

  private static Map<Integer, CacheEntry> contents(EntryStore store) {
    Map<Integer, CacheEntry> contents = new HashMap<>();
    store.forEach(contents::put);
    return contents;
  }

  public void testPutGetRemoveAndReopen() {
    MemorySegment region = region(1 << 16);
    EntryStore store = EntryStore.open(region, 64, Persister.NONE);
    assertEquals("blank region", store.rebuiltReason());
    CacheEntry disjunction =
        new CacheEntry(
            key(QueryKey.Operator.OR, "melon", "cheese"),
            10,
            123_456,
            List.of(new SegmentTag(0, 3, 0), new SegmentTag(1, 7, 2)),
            new ResultList(
                12, true, List.of(new ScoredDoc(0, 5, 2.5f), new ScoredDoc(1, 0, 1.25f))),
            List.of(
                new ResultList(4, false, List.of(new ScoredDoc(1, 0, 1.0f))),
                new ResultList(9, true, List.of(new ScoredDoc(0, 5, 2.5f)))));
    CacheEntry single =
        new CacheEntry(
            key(QueryKey.Operator.SINGLE, "x"),
            10,
            0,
            List.of(),
            new ResultList(0, true, List.of()),
            List.of());
    int first = put(store, disjunction);
    int second = put(store, single);
    assertEquals(disjunction, store.get(first));
    assertEquals(single, store.get(second));
    assertEquals(2, store.size());

    EntryStore reopened = EntryStore.open(region, 64, Persister.NONE);
    assertNull(reopened.rebuiltReason());
    assertEquals(0, reopened.droppedOnOpen());
    assertEquals(Map.of(first, disjunction, second, single), contents(reopened));
    long freeBefore = reopened.freeBytes();
    reopened.remove(first);
    assertTrue(reopened.freeBytes() > freeBefore);
    expectThrows(IllegalArgumentException.class, () -> reopened.get(first));
    assertEquals(Map.of(second, single), contents(EntryStore.open(region, 64, Persister.NONE)));
  }

  /** The NVM tier: a region of an NvmHeap pool file is still warm after the pool is reopened. */
  public void testEntriesSurviveReopeningAnNvmPool() throws Exception {
    java.nio.file.Path pool = PoolPaths.poolIn(createTempDir("cache-pool"));
    long regionSize = 1 << 16;
    Map<Integer, CacheEntry> stored = new HashMap<>();
    try (NvmHeap heap = NvmHeap.open(pool, NvmHeap.HEADER_SIZE + regionSize)) {
      MemorySegment region = heap.segment(NvmHeap.HEADER_SIZE, regionSize);
      EntryStore store =
          EntryStore.open(region, 32, Persister.forHeapRegion(heap, NvmHeap.HEADER_SIZE));
      for (int i = 0; i < 10; i++) {
        CacheEntry entry = entry(random(), i);
        stored.put(put(store, entry), entry);
      }
    }
    try (NvmHeap heap = NvmHeap.open(pool, NvmHeap.HEADER_SIZE + regionSize)) {
      MemorySegment region = heap.segment(NvmHeap.HEADER_SIZE, regionSize);
      EntryStore store =
          EntryStore.open(region, 32, Persister.forHeapRegion(heap, NvmHeap.HEADER_SIZE));
      assertNull(store.rebuiltReason());
      assertEquals(stored, contents(store));
    }
  }

  public void testTornEntryIsDroppedAndItsSpaceReclaimed() {
    MemorySegment region = region(1 << 14);
    EntryStore store = EntryStore.open(region, 16, Persister.NONE);
    long emptyFree = store.freeBytes();
    CacheEntry kept = entry(random(), 1);
    CacheEntry torn = entry(random(), 2);
    int keptSlot = put(store, kept);
    int tornSlot = put(store, torn);
    long block = region.get(LONG, 16 + 8L * tornSlot);
    long heapStart = (16 + 8L * 16 + 15) & -16L;
    long bodyByte = heapStart + block + 8 + 3;
    region.set(
        ValueLayout.JAVA_BYTE,
        bodyByte,
        (byte) (region.get(ValueLayout.JAVA_BYTE, bodyByte) ^ 0x40));

    EntryStore reopened;
    try (CapturedLog log = new CapturedLog(EntryStore.class)) {
      reopened = EntryStore.open(region, 16, Persister.NONE);
      assertEquals(List.of("cache region: dropped 1 torn or invalid entries"), log.warnings());
    }
    assertNull(reopened.rebuiltReason());
    assertEquals(1, reopened.droppedOnOpen());
    assertEquals(Map.of(keptSlot, kept), contents(reopened));
    reopened.remove(keptSlot);
    assertEquals(emptyFree, reopened.freeBytes());
  }

  public void testUnpublishedBlockIsReclaimedOnOpen() {
    MemorySegment region = region(1 << 14);
    EntryStore store = EntryStore.open(region, 16, Persister.NONE);
    long emptyFree = store.freeBytes();
    int slot = put(store, entry(random(), 1));
    region.set(LONG, 16 + 8L * slot, 0); // crash before the slot store reached memory
    EntryStore reopened = EntryStore.open(region, 16, Persister.NONE);
    assertEquals(0, reopened.size());
    assertEquals(0, reopened.droppedOnOpen());
    assertEquals(emptyFree, reopened.freeBytes());
  }

  public void testFullStoreSignalsNoSpace() {
    EntryStore bySlots = EntryStore.open(region(1 << 16), 3, Persister.NONE);
    for (int i = 0; i < 3; i++) {
      assertNotEquals(EntryStore.NO_SPACE, put(bySlots, entry(random(), i)));
    }
    assertEquals(EntryStore.NO_SPACE, put(bySlots, entry(random(), 4)));

    EntryStore byBytes = EntryStore.open(region(2048), 100, Persister.NONE);
    int stored = 0;
    while (put(byBytes, entry(random(), stored)) != EntryStore.NO_SPACE) {
      stored++;
    }
    assertTrue(stored < 100);
  }

  public void testCorruptHeaderOrOtherSlotCountIsRebuiltEmpty() {
    MemorySegment region = region(1 << 14);
    put(EntryStore.open(region, 16, Persister.NONE), entry(random(), 1));
    EntryStore reopened;
    try (CapturedLog log = new CapturedLog(EntryStore.class)) {
      EntryStore resized = EntryStore.open(region, 32, Persister.NONE);
      assertEquals("store has 16 slots, 32 configured", resized.rebuiltReason());
      assertEquals(0, resized.size());
      put(resized, entry(random(), 2));
      region.set(LONG, 0, 0x1234);
      reopened = EntryStore.open(region, 32, Persister.NONE);
      assertEquals("bad store magic 1234", reopened.rebuiltReason());
      assertEquals(
          List.of(
              "cache region rebuilt empty: store has 16 slots, 32 configured",
              "cache region rebuilt empty: bad store magic 1234"),
          log.warnings());
    }
    assertEquals(0, reopened.size());
    assertEquals(reopened.capacityBytes(), reopened.freeBytes());
  }

  /** A persist failing at any barrier of a put leaves the store as it was, and usable. */
  public void testFailedPersistLeavesTheStoreAsItWas() {
    for (int failAt = 0; failAt < 4; failAt++) {
      MemorySegment region = region(1 << 14);
      FailingPersister flaky = new FailingPersister();
      EntryStore store = EntryStore.open(region, 16, flaky);
      CacheEntry kept = entry(random(), 1);
      int keptSlot = put(store, kept);
      long free = store.freeBytes();
      flaky.failPersist(failAt);
      expectThrows(UncheckedIOException.class, () -> put(store, entry(random(), 2)));
      assertEquals(1, store.size());
      assertEquals(free, store.freeBytes());
      CacheEntry next = entry(random(), 3);
      int nextSlot = put(store, next);
      EntryStore reopened = EntryStore.open(region, 16, Persister.NONE);
      assertEquals(Map.of(keptSlot, kept, nextSlot, next), contents(reopened));
      assertEquals(0, reopened.droppedOnOpen());
    }
  }

  /** The size the cache counts an entry by is its encoded length, worked out without encoding. */
  public void testEncodedSizeIsTheEncodedLength() {
    for (int i = 0; i < 50; i++) {
      CacheEntry entry = entry(random(), i);
      assertEquals(encodedLength(entry), EntryCodec.encodedSize(entry));
    }
    CacheEntry nonAscii =
        new CacheEntry(
            new QueryKey(
                QueryKey.Operator.SINGLE, List.of(new Term("f\u00e9\u20ac\ud83d\ude00", "t"))),
            10,
            1,
            List.of(new SegmentTag(0, 1, 0)),
            hits(random(), 3, 1),
            List.of());
    assertEquals(encodedLength(nonAscii), EntryCodec.encodedSize(nonAscii));
  }

  /** How many bytes encoding {@code entry} writes, into a buffer with room to spare. */
  private static int encodedLength(CacheEntry entry) {
    ByteBuffer out = ByteBuffer.allocate(EntryCodec.encodedSize(entry) + 64);
    EntryCodec.encode(entry, out);
    return out.position();
  }

  public void testGarbageEntryBytesAreRefused() {
    CacheEntry whole = entry(random(), 1);
    byte[] bytes = new byte[EntryCodec.encodedSize(whole)];
    EntryCodec.encode(whole, ByteBuffer.wrap(bytes));
    for (int cut = 0; cut < bytes.length; cut += 1 + bytes.length / 20) {
      int length = cut;
      expectThrows(
          IllegalArgumentException.class,
          () -> EntryCodec.decode(ByteBuffer.wrap(Arrays.copyOf(bytes, length))));
    }
  }

  /**
   * Power failure at a random persist barrier: only persisted stores are certain to survive; any
   * other word holds its last persisted value or any value it held at a barrier since (a cache line
   * may be written back whenever), chosen per word. The region is never rebuilt, and the reopened
   * store holds exactly entries that were put, and every entry whose put returned (and whose
   * removal did not start) before the failure; at most one more (the operation in flight). Puts
   * that find the store full evict, so freed and merged space is reused.
   */
  public void testPowerFailureNeverExposesHalfWrittenEntries() {
    Random random = random();
    for (int round = 0; round < 100; round++) {
      int size = 1 << 14;
      MemorySegment working = region(size);
      MemorySegment durable = region(size);
      Map<Long, List<Long>> unpersisted = new HashMap<>(); // word -> values seen at barriers
      int failAfter = 1 + random.nextInt(3000);
      int[] persists = {0};
      Persister persister =
          (offset, length) -> {
            for (long word = 0; word < size; word += 8) {
              long value = working.get(LONG, word);
              if (value != durable.get(LONG, word)) {
                List<Long> seen = unpersisted.computeIfAbsent(word, w -> new ArrayList<>());
                if (!seen.contains(value)) {
                  seen.add(value);
                }
              }
            }
            assertEveryChainTiles(durable, unpersisted, (16 + 8 * 24 + 15) & -16L, size);
            if (persists[0]++ == failAfter) {
              throw new PowerFailure();
            }
            MemorySegment.copy(working, offset, durable, offset, length);
            for (long word = offset & -8L; word < offset + length; word += 8) {
              unpersisted.remove(word);
            }
          };
      Map<Integer, CacheEntry> acknowledged = new HashMap<>();
      List<CacheEntry> everPut = new ArrayList<>();
      try {
        EntryStore store = EntryStore.open(working, 24, persister);
        for (int op = 0; op < 1000; op++) {
          if (acknowledged.isEmpty() || random.nextInt(3) > 0) {
            CacheEntry entry = entry(random, op);
            everPut.add(entry);
            int slot;
            while ((slot = put(store, entry)) == EntryStore.NO_SPACE && !acknowledged.isEmpty()) {
              store.remove(removeAny(acknowledged, random));
            }
            if (slot != EntryStore.NO_SPACE) {
              acknowledged.put(slot, entry);
            }
          } else {
            store.remove(removeAny(acknowledged, random));
          }
        }
      } catch (PowerFailure expected) {
        // the operation in flight may or may not have happened
      }
      for (Map.Entry<Long, List<Long>> word : unpersisted.entrySet()) {
        int pick = random.nextInt(word.getValue().size() + 1); // 0: the persisted value stays
        if (pick > 0) {
          durable.set(LONG, word.getKey(), word.getValue().get(pick - 1));
        }
      }
      EntryStore recovered = EntryStore.open(durable, 24, Persister.NONE);
      String rebuilt = recovered.rebuiltReason(); // blank if the failure came while formatting
      assertTrue("rebuilt: " + rebuilt, rebuilt == null || rebuilt.equals("blank region"));
      Map<Integer, CacheEntry> after = contents(recovered);
      assertEquals(0, recovered.droppedOnOpen());
      for (CacheEntry entry : after.values()) {
        assertTrue("recovered an entry never put: " + entry, everPut.contains(entry));
      }
      for (Map.Entry<Integer, CacheEntry> entry : acknowledged.entrySet()) {
        assertEquals(entry.getValue(), after.get(entry.getKey()));
      }
      assertTrue(after.size() <= acknowledged.size() + 1);
    }
  }

  /**
   * Fails unless the allocator's block chain in the heap at {@code heapStart} tiles it up to
   * {@code end} whichever value each of its words keeps if the power fails now: its persisted one
   * in {@code durable} or one in {@code unpersisted}. Every position some choice reaches is
   * checked, so an ordering bug fails here whenever its window opens, not only when a failure
   * happens to hit it. A heap still being formatted (no durable magic) is skipped: it reopens
   * blank.
   */
  private static void assertEveryChainTiles(
      MemorySegment durable, Map<Long, List<Long>> unpersisted, long heapStart, long end) {
    if (durable.get(LONG, heapStart) != TlsfAllocator.MAGIC) {
      return;
    }
    Set<Long> reached = new HashSet<>();
    ArrayDeque<Long> todo = new ArrayDeque<>(List.of(heapStart + TlsfAllocator.REGION_HEADER));
    while (!todo.isEmpty()) {
      long block = todo.pop();
      if (!reached.add(block)) {
        continue;
      }
      List<Long> values = new ArrayList<>(unpersisted.getOrDefault(block, List.of()));
      values.add(durable.get(LONG, block));
      for (long value : values) {
        long blockSize = value & -16L;
        assertTrue(
            "a power failure now could leave a header of size " + blockSize + " at " + block,
            blockSize >= TlsfAllocator.MIN_BLOCK && blockSize <= end - block);
        if (block + blockSize < end) {
          todo.push(block + blockSize);
        }
      }
    }
  }

  /** {@code store.put} with the entry's encoded size, as the cache passes it. */
  private static int put(EntryStore store, CacheEntry entry) {
    return store.put(entry, EntryCodec.encodedSize(entry));
  }

  /** Removes a random slot from {@code acknowledged} and returns it. */
  private static int removeAny(Map<Integer, CacheEntry> acknowledged, Random random) {
    int slot = new ArrayList<>(acknowledged.keySet()).get(random.nextInt(acknowledged.size()));
    acknowledged.remove(slot);
    return slot;
  }

  private static final class PowerFailure extends RuntimeException {
    PowerFailure() {
      super("simulated power failure", null, false, false);
    }
  }
}
