package org.lucenenvm.cache;

import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TlsfAllocatorTest extends LuceneTestCase {
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

  private static MemorySegment region(long bytes) {
    return Arena.ofAuto().allocate(bytes, 16);
  }

  public void testBlankRegionIsFormattedWithoutWarning() {
    TlsfAllocator allocator;
    try (CapturedLog log = new CapturedLog(TlsfAllocator.class)) {
      allocator = TlsfAllocator.open(region(4096), Persister.NONE);
      assertEquals(List.of(), log.warnings());
    }
    assertEquals("blank region", allocator.rebuiltReason());
    assertEquals(4096 - TlsfAllocator.REGION_HEADER, allocator.capacity());
    assertEquals(allocator.capacity(), allocator.freeBytes());
    assertEquals(1, allocator.freeBlockCount());
  }

  public void testSplitAndCoalesceWithBothNeighbours() {
    TlsfAllocator allocator = TlsfAllocator.open(region(4096), Persister.NONE);
    long a = allocator.allocate(100);
    long b = allocator.allocate(100);
    long c = allocator.allocate(100);
    assertTrue(allocator.usableSize(a) >= 100);
    assertEquals(a + allocator.usableSize(a) + TlsfAllocator.BLOCK_HEADER, b);
    assertEquals(1, allocator.freeBlockCount()); // the tail
    allocator.free(b);
    assertEquals(2, allocator.freeBlockCount());
    allocator.free(a); // merges forward into b's block
    assertEquals(2, allocator.freeBlockCount());
    long again = allocator.allocate(100); // same size class: reused at a's address
    assertEquals(a, again);
    allocator.free(again);
    allocator.free(c); // merges backward (a+b) and forward (tail)
    assertEquals(1, allocator.freeBlockCount());
    assertEquals(allocator.capacity(), allocator.freeBytes());
    // one coalesced block again: a request of half the region is served from its start
    assertEquals(
        TlsfAllocator.REGION_HEADER + TlsfAllocator.BLOCK_HEADER,
        allocator.allocate(allocator.capacity() / 2));
  }

  /**
   * An allocation that splits persists the remainder's header and its own (two barriers), one that
   * takes a whole block only its own; a free, even one that coalesces with both neighbours,
   * persists nothing (see the class javadoc for why).
   */
  public void testAllocationPersistsHeadersAndFreePersistsNothing() {
    int[] persists = {0};
    TlsfAllocator allocator =
        TlsfAllocator.open(region(4096), (offset, length) -> persists[0]++);
    persists[0] = 0;
    long a = allocator.allocate(100);
    assertEquals(2, persists[0]);
    long b = allocator.allocate(100);
    long c = allocator.allocate(100);
    persists[0] = 0;
    allocator.free(b);
    assertEquals(0, persists[0]);
    assertEquals(b, allocator.allocate(100)); // b's block again, whole
    assertEquals(1, persists[0]);
    persists[0] = 0;
    allocator.free(a);
    allocator.free(c);
    allocator.free(b);
    assertEquals(0, persists[0]);
    assertEquals(1, allocator.freeBlockCount());
  }

  /** A persist that fails inside an allocation leaves the allocator as it was. */
  public void testFailedPersistLeavesTheAllocatorAsItWas() {
    for (int failAt = 0; failAt < 2; failAt++) {
      FailingPersister flaky = new FailingPersister();
      TlsfAllocator allocator = TlsfAllocator.open(region(4096), flaky);
      long a = allocator.allocate(100);
      long b = allocator.allocate(100);
      allocator.free(a);
      long free = allocator.freeBytes();
      int blocks = allocator.freeBlockCount();
      flaky.failPersist(failAt);
      expectThrows(UncheckedIOException.class, () -> allocator.allocate(300));
      assertEquals(free, allocator.freeBytes());
      assertEquals(blocks, allocator.freeBlockCount());
      List<Long> all = new ArrayList<>(); // every byte can still be handed out, and given back
      for (long p; (p = allocator.allocate(16)) != TlsfAllocator.NO_SPACE; ) {
        all.add(p);
      }
      allocator.forEachAllocated(p -> assertTrue(all.contains(p) || p == b));
      for (long p : all) {
        allocator.free(p);
      }
      assertEquals(2, allocator.freeBlockCount());
    }
  }

  public void testFragmentationRefusesLargeBlockUntilNeighboursAreFreed() {
    TlsfAllocator allocator = TlsfAllocator.open(region(8192), Persister.NONE);
    List<Long> blocks = new ArrayList<>();
    for (long p; (p = allocator.allocate(48)) != TlsfAllocator.NO_SPACE; ) {
      blocks.add(p);
    }
    for (int i = 0; i < blocks.size(); i += 2) {
      allocator.free(blocks.get(i));
    }
    assertTrue(allocator.freeBytes() > 2000);
    assertEquals(
        TlsfAllocator.NO_SPACE, allocator.allocate(500)); // free space is all 64-byte holes
    assertNotEquals(
        TlsfAllocator.NO_SPACE, allocator.allocate(48)); // a hole still fits a small one
    for (int i = 1; i < blocks.size(); i += 2) {
      allocator.free(blocks.get(i));
    }
    long large = allocator.allocate(500);
    assertNotEquals(TlsfAllocator.NO_SPACE, large);
  }

  public void testFullRegionSignalsNoSpaceAndNeverThrows() {
    TlsfAllocator allocator = TlsfAllocator.open(region(4096), Persister.NONE);
    int count = 0;
    while (allocator.allocate(1 + random().nextInt(200)) != TlsfAllocator.NO_SPACE) {
      count++;
    }
    assertTrue(count > 10);
    assertEquals(TlsfAllocator.NO_SPACE, allocator.allocate(4096));
    assertEquals(TlsfAllocator.NO_SPACE, allocator.allocate(Long.MAX_VALUE / 2));
    expectThrows(IllegalArgumentException.class, () -> allocator.allocate(0));
  }

  public void testFreeOfSomethingNotAllocatedIsRefused() {
    TlsfAllocator allocator = TlsfAllocator.open(region(4096), Persister.NONE);
    long a = allocator.allocate(64);
    allocator.free(a);
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> allocator.free(a));
    assertTrue(e.getMessage(), e.getMessage().contains("not an allocated block"));
    expectThrows(IllegalArgumentException.class, () -> allocator.free(a + 8));
    expectThrows(IllegalArgumentException.class, () -> allocator.free(1 << 20));
  }

  public void testRandomAllocFreeAgainstModel() {
    MemorySegment region = region(1 << 16);
    TlsfAllocator allocator = TlsfAllocator.open(region, Persister.NONE);
    TreeMap<Long, Long> live = new TreeMap<>(); // payload -> usable size
    Random random = random();
    for (int step = 0; step < 5000; step++) {
      if (live.isEmpty() || random.nextInt(5) < 3) {
        long request = 1 + random.nextInt(random.nextBoolean() ? 64 : 3000);
        long p = allocator.allocate(request);
        if (p == TlsfAllocator.NO_SPACE) {
          continue;
        }
        long usable = allocator.usableSize(p);
        assertTrue(usable >= request);
        assertEquals(0, p % 16);
        assertTrue(p + usable <= region.byteSize());
        Map.Entry<Long, Long> below = live.floorEntry(p);
        Map.Entry<Long, Long> above = live.ceilingEntry(p);
        assertTrue(
            "overlaps " + below,
            below == null || below.getKey() + below.getValue() <= p - TlsfAllocator.BLOCK_HEADER);
        assertTrue(
            "overlaps " + above,
            above == null || p + usable <= above.getKey() - TlsfAllocator.BLOCK_HEADER);
        live.put(p, usable);
      } else {
        Long victim = live.keySet().toArray(new Long[0])[random.nextInt(live.size())];
        allocator.free(victim);
        live.remove(victim);
      }
      if (step % 1000 == 999) { // reopen: the same blocks, the same free space
        long free = allocator.freeBytes();
        allocator = TlsfAllocator.open(region, Persister.NONE);
        assertNull(allocator.rebuiltReason());
        assertEquals(free, allocator.freeBytes());
        List<Long> allocated = new ArrayList<>();
        allocator.forEachAllocated(allocated::add);
        assertEquals(new ArrayList<>(live.keySet()), allocated);
      }
      long used = live.values().stream().mapToLong(u -> u + TlsfAllocator.BLOCK_HEADER).sum();
      assertEquals(allocator.capacity(), used + allocator.freeBytes());
    }
    for (long p : live.keySet()) {
      allocator.free(p);
    }
    assertEquals(1, allocator.freeBlockCount());
    assertEquals(allocator.capacity(), allocator.freeBytes());
  }

  public void testCorruptBlockChainIsRebuiltEmpty() {
    MemorySegment region = region(4096);
    TlsfAllocator allocator = TlsfAllocator.open(region, Persister.NONE);
    long a = allocator.allocate(100);
    allocator.allocate(100);
    region.set(LONG, a - TlsfAllocator.BLOCK_HEADER, 7 << 4 | 1); // size 112 breaks the chain
    TlsfAllocator reopened;
    try (CapturedLog log = new CapturedLog(TlsfAllocator.class)) {
      reopened = TlsfAllocator.open(region, Persister.NONE);
      assertEquals(
          List.of("cache region rebuilt empty: " + reopened.rebuiltReason()), log.warnings());
    }
    assertTrue(reopened.rebuiltReason(), reopened.rebuiltReason().contains("invalid size"));
    assertEquals(reopened.capacity(), reopened.freeBytes());
    reopened.forEachAllocated(p -> fail("served a block from a corrupt region: " + p));
  }

  public void testCorruptMagicOrOtherSizeIsRebuiltEmpty() {
    MemorySegment region = region(4096);
    TlsfAllocator.open(region, Persister.NONE).allocate(64);
    TlsfAllocator reopened;
    try (CapturedLog log = new CapturedLog(TlsfAllocator.class)) {
      TlsfAllocator smaller = TlsfAllocator.open(region.asSlice(0, 2048), Persister.NONE);
      assertTrue(smaller.rebuiltReason(), smaller.rebuiltReason().contains("region size"));
      region.set(LONG, 0, 42);
      reopened = TlsfAllocator.open(region, Persister.NONE);
      assertTrue(reopened.rebuiltReason(), reopened.rebuiltReason().contains("bad magic"));
      assertEquals(
          List.of(
              "cache region rebuilt empty: " + smaller.rebuiltReason(),
              "cache region rebuilt empty: " + reopened.rebuiltReason()),
          log.warnings());
    }
    assertEquals(reopened.capacity(), reopened.freeBytes());
  }

  public void testFreeNeighboursLeftByACrashAreMergedOnOpen() {
    MemorySegment region = region(4096);
    TlsfAllocator allocator = TlsfAllocator.open(region, Persister.NONE);
    long a = allocator.allocate(100);
    long b = allocator.allocate(100);
    long header = b - TlsfAllocator.BLOCK_HEADER;
    region.set(
        LONG, header, region.get(LONG, header) & ~1L); // crash after "mark free", before coalescing
    TlsfAllocator reopened = TlsfAllocator.open(region, Persister.NONE);
    assertNull(reopened.rebuiltReason());
    assertEquals(1, reopened.freeBlockCount());
    List<Long> allocated = new ArrayList<>();
    reopened.forEachAllocated(allocated::add);
    assertEquals(List.of(a), allocated);
  }

  public void testTooSmallRegionIsRefused() {
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class, () -> TlsfAllocator.open(region(32), Persister.NONE));
    assertTrue(e.getMessage(), e.getMessage().contains("at least"));
  }
}
