package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.SuppressSysoutChecks;

/**
 * Growing a pool while it is open: the heap's chunks ({@link NvmHeap#grow}) and the directory's
 * automatic growth ({@link PoolGrowth}), with files across chunk boundaries, readers during growth,
 * the limits (maximum, file-system space) and a reopen.
 */
@SuppressSysoutChecks(bugUrl = "PoolGrower logs each growth of a pool at INFO")
public class TestNvmOnlineGrowth extends LuceneTestCase {
  private static final long MIB = 1L << 20;
  private static final FileSystemRoom.UsableSpace UNLIMITED = file -> Long.MAX_VALUE;

  private Path pool() throws IOException {
    return PoolPaths.poolIn(createTempDir("online"));
  }

  private static NvmDirectory directory(NvmHeap heap, PoolGrowth growth, FileSystemRoom.UsableSpace space)
      throws IOException {
    return new NvmDirectory(heap, new SingleInstanceLockFactory(), growth, new FileSystemRoom(space));
  }

  public void testHeapGrowsByChunksAndKeepsEveryMapping() throws Exception {
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, MIB)) {
      heap.publishRoot(1, 4242L);
      MemorySegment before = heap.segment(MIB - 8, 8);
      before.set(ValueLayout.JAVA_LONG, 0, 99L);
      heap.grow(3 * MIB - 100); // rounded up to 4 KiB
      assertEquals(3 * MIB, heap.size());
      assertEquals(2, heap.chunkCount());
      assertEquals(3 * MIB, Files.size(file));
      assertEquals("a segment taken before the growth still reads", 99L, before.get(ValueLayout.JAVA_LONG, 0));
      assertEquals(4242L, heap.root(1));
      MemorySegment zeros = MemorySegment.ofArray(new byte[(int) (2 * MIB)]);
      assertEquals("the new space is zero", -1, heap.segment(MIB, 2 * MIB).mismatch(zeros));
      IllegalArgumentException spans = expectThrows(IllegalArgumentException.class, () -> heap.segment(MIB - 8, 16));
      assertTrue(spans.getMessage(), spans.getMessage().contains("spans the chunk boundary at " + MIB));
      expectThrows(IndexOutOfBoundsException.class, () -> heap.segment(3 * MIB - 8, 16));
      heap.segment(MIB, 8).set(ValueLayout.JAVA_LONG, 0, 7L);
      heap.persist(MIB - 8, 16); // one persist over both chunks
      heap.grow(2 * MIB); // smaller: nothing happens
      assertEquals(2, heap.chunkCount());
      heap.grow(4 * MIB);
      assertEquals(3, heap.chunkCount());
      assertArrayEquals(new long[] {MIB, 3 * MIB, 4 * MIB}, heap.chunkEnds());
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(4 * MIB, heap.size());
      assertEquals("one chunk again after a restart", 1, heap.chunkCount());
      assertEquals(99L, heap.segment(MIB - 8, 8).get(ValueLayout.JAVA_LONG, 0));
      assertEquals(7L, heap.segment(MIB, 8).get(ValueLayout.JAVA_LONG, 0));
      assertEquals(4242L, heap.root(1));
    }
  }

  public void testLlplCannotGrowWhileOpen() throws Exception {
    String reason = LlplPoolBackend.unavailableReason();
    assumeTrue("llpl backend unavailable: " + reason, reason == null);
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, MIB, NvmHeap.OpenMode.CREATE_OR_OPEN, new LlplPoolBackend())) {
      IOException e = expectThrows(IOException.class, () -> heap.grow(2 * MIB));
      assertTrue(e.getMessage(), e.getMessage().contains("maps whole pools only"));
      assertEquals(MIB, heap.size());
      assertEquals(1, heap.chunkCount());
      assertEquals("the extension truncated away", MIB, Files.size(file));
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals("the refused growth left the pool's size", MIB, heap.size());
    }
  }

  /**
   * Files written before and after growths, one larger than the room left in the first chunk;
   * inputs opened before still read; after a reopen the pool is one chunk with every file intact.
   */
  public void testFilesAcrossChunksAndReopen() throws Exception {
    Path file = pool();
    Map<String, byte[]> written = new TreeMap<>();
    PoolGrowth growth = new PoolGrowth(8 * MIB, MIB / 2, 0, 0);
    try (NvmHeap heap = NvmHeap.open(file, MIB);
        NvmDirectory dir = directory(heap, growth, UNLIMITED)) {
      for (int i = 0; i < 3; i++) {
        write(dir, "before" + i, bytes(200_000), written);
      }
      IndexInput early = dir.openInput("before0", IOContext.DEFAULT);
      IndexInput earlySlice = early.slice("slice", 1000, 50_000);
      long free = dir.freeBytes();
      write(dir, "larger-than-free", bytes((int) (free + 300_000)), written);
      assertTrue("grew: " + heap, heap.chunkCount() > 1 && heap.size() > MIB);
      for (int i = 0; i < 4; i++) {
        write(dir, "after" + i, bytes(random().nextInt(700_000) + 1), written);
      }
      assertNoExtentSpansChunks(dir, heap);
      assertContents(dir, written);
      assertContent(early, written.get("before0"), "input opened before the growth");
      byte[] expectedSlice = new byte[50_000];
      System.arraycopy(written.get("before0"), 1000, expectedSlice, 0, 50_000);
      assertContent(earlySlice, expectedSlice, "slice taken before the growth");
      early.close();
      dir.sync(written.keySet());
      PoolAccounting.assertAccounted(dir, "after growths");
    }
    try (NvmDirectory dir = NvmDirectory.open(file, 0, growth)) {
      assertEquals("one chunk again", 1, dir.heap().chunkCount());
      assertTrue(dir.heap().size() > MIB);
      assertContents(dir, written);
      PoolAccounting.assertAccounted(dir, "reopened");
      write(dir, "after-reopen", bytes((int) (dir.heap().size() / 4)), written);
      assertTrue("the full pool grew again", dir.heap().chunkCount() > 1);
      assertContents(dir, written);
    }
  }

  /**
   * A directory opened over a heap that grew while open keeps extents inside chunks, and a growth
   * by a caller of {@link NvmHeap#grow} is taken on by the directory's next growth.
   */
  public void testDirectoryOverAHeapThatGrewWhileOpen() throws Exception {
    Map<String, byte[]> written = new TreeMap<>();
    PoolGrowth growth = new PoolGrowth(8 * MIB, MIB / 2, 0, 0);
    try (NvmHeap heap = NvmHeap.open(pool(), MIB)) {
      try (NvmDirectory dir = directory(heap, growth, UNLIMITED)) {
        write(dir, "first", bytes((int) MIB), written);
        dir.sync(written.keySet());
      }
      heap.grow(heap.size() + MIB); // by a caller, not by a directory
      try (NvmDirectory dir = directory(heap, growth, UNLIMITED)) {
        PoolAccounting.assertAccounted(dir, "over " + heap.chunkCount() + " chunks");
        assertContents(dir, written);
        for (int i = 0; i < 4; i++) {
          write(dir, "more" + i, bytes(600_000), written);
        }
        heap.grow(heap.size() + MIB / 4);
        write(dir, "last", bytes((int) (dir.freeBytes() + MIB / 4 + 1)), written);
        assertNoExtentSpansChunks(dir, heap);
        assertContents(dir, written);
        PoolAccounting.assertAccounted(dir, "after growths of both kinds");
      }
    }
  }

  /** Growth ahead of need at the watermark, up to the maximum; then the pool is full, nothing lost. */
  public void testWatermarkGrowthUpToTheMaximumThenPoolFull() throws Exception {
    Path file = pool();
    Map<String, byte[]> written = new TreeMap<>();
    PoolGrowth growth = new PoolGrowth(3 * MIB, MIB / 2, 40, 0);
    try (NvmHeap heap = NvmHeap.open(file, MIB);
        NvmDirectory dir = directory(heap, growth, UNLIMITED)) {
      int i = 0;
      int growths = 0;
      while (heap.size() < growth.maxBytes()) {
        long sizeBefore = heap.size();
        long freeBefore = dir.freeBytes();
        write(dir, "f" + i++, bytes(64 * 1024), written);
        dir.sync(written.keySet());
        if (heap.size() > sizeBefore) {
          growths++;
          // The file's extents take at most 128 KiB: with more free, it did not need the growth.
          assertTrue("grew ahead of need, with " + freeBefore + " bytes free", freeBefore >= 256 * 1024);
          assertEquals("one step", Math.min(sizeBefore + MIB / 2, growth.maxBytes()), heap.size());
        }
      }
      assertEquals(4, growths);
      PoolFullException full = null;
      while (full == null) {
        try {
          write(dir, "f" + i++, bytes(64 * 1024), written);
        } catch (PoolFullException e) {
          full = e;
          dir.deleteFile("f" + (i - 1)); // the output was closed by try-with-resources
        }
      }
      assertTrue(full.getMessage(), full.getMessage().contains("maximum size of " + 3 * MIB));
      assertEquals(3 * MIB, heap.size());
      assertContents(dir, written);
      dir.sync(written.keySet());
      String victim = written.keySet().iterator().next();
      dir.deleteFile(victim);
      written.remove(victim);
      write(dir, "after-delete", bytes(32 * 1024), written);
      assertContents(dir, written);
    }
    try (NvmDirectory dir = NvmDirectory.open(file, 0)) {
      assertEquals(3 * MIB, dir.heap().size());
      written.remove("after-delete"); // never synced
      assertContents(dir, written);
    }
  }

  /** The file system's usable space less the margin bounds each growth; without it the pool stays full. */
  public void testGrowthRefusedByFileSystemSpace() throws Exception {
    Path file = pool();
    long margin = 10 * MIB;
    // A simulated file system: room for the pool file plus the margin, 256 KiB and 100 bytes.
    long disk = margin + MIB + MIB / 4 + 100;
    FileSystemRoom.UsableSpace usable = f -> disk - Files.size(f);
    Map<String, byte[]> written = new TreeMap<>();
    try (NvmHeap heap = NvmHeap.open(file, MIB);
        NvmDirectory dir = directory(heap, new PoolGrowth(16 * MIB, 4 * MIB, 0, margin), usable)) {
      write(dir, "first", bytes(400 * 1024), written);
      write(dir, "needs-growth", bytes(700 * 1024), written);
      assertEquals("grew by the usable space less the margin, in blocks", MIB + MIB / 4, heap.size());
      long sizeBefore = heap.size();
      PoolFullException e =
          expectThrows(PoolFullException.class, () -> write(dir, "refused", bytes((int) MIB), written));
      assertTrue(e.getMessage(), e.getMessage().contains("has " + (margin + 100) + " bytes usable"));
      assertTrue(e.getMessage(), e.getMessage().contains("leaves " + margin + " of them free"));
      assertEquals(sizeBefore, heap.size());
      assertEquals(sizeBefore, Files.size(file));
      dir.deleteFile("refused");
      assertContents(dir, written);
      dir.sync(written.keySet());
    }
    try (NvmDirectory dir = NvmDirectory.open(file, 0)) {
      assertEquals(MIB + MIB / 4, dir.heap().size());
      assertContents(dir, written);
    }
  }

  /** Readers of older files and a second writer run while a writer's allocations grow the pool. */
  public void testReadersAndWritersDuringGrowth() throws Exception {
    Path file = pool();
    Map<String, byte[]> stable = new ConcurrentHashMap<>();
    try (NvmHeap heap = NvmHeap.open(file, MIB);
        NvmDirectory dir = directory(heap, new PoolGrowth(64 * MIB, MIB, 20, 0), UNLIMITED)) {
      for (int i = 0; i < 4; i++) {
        byte[] content = bytes(100_000);
        write(dir, "stable" + i, content, stable);
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicInteger reads = new AtomicInteger();
      List<Thread> threads = new ArrayList<>();
      Map<String, IndexInput> heldInputs = new TreeMap<>();
      for (String name : stable.keySet()) {
        heldInputs.put(name, dir.openInput(name, IOContext.DEFAULT));
      }
      for (int t = 0; t < 2; t++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    while (!stop.get()) {
                      for (Map.Entry<String, byte[]> e : stable.entrySet()) {
                        try (IndexInput in = dir.openInput(e.getKey(), IOContext.DEFAULT)) {
                          assertContent(in, e.getValue(), "concurrent read of " + e.getKey());
                        }
                        reads.incrementAndGet();
                      }
                    }
                  } catch (Throwable t1) {
                    failure.compareAndSet(null, t1);
                  }
                }));
      }
      Map<String, byte[]> secondWriter = new ConcurrentHashMap<>();
      long seed = random().nextLong();
      threads.add(
          new Thread(
              () -> {
                Random r = new Random(seed);
                try {
                  for (int i = 0; i < 30 && !stop.get(); i++) {
                    byte[] content = new byte[r.nextInt(150_000) + 1];
                    r.nextBytes(content);
                    write(dir, "w2-" + i, content, secondWriter);
                  }
                } catch (Throwable t1) {
                  failure.compareAndSet(null, t1);
                }
              }));
      threads.forEach(Thread::start);
      Map<String, byte[]> grower = new TreeMap<>();
      try {
        for (int i = 0; i < 12; i++) {
          write(dir, "grow" + i, bytes(700_000), grower);
        }
      } finally {
        stop.set(true);
        for (Thread t : threads) {
          t.join();
        }
      }
      if (failure.get() != null) {
        throw new AssertionError("a concurrent reader or writer failed", failure.get());
      }
      assertTrue("grew several times: " + heap, heap.chunkCount() >= 3);
      assertTrue(reads.get() > 0);
      for (Map.Entry<String, IndexInput> held : heldInputs.entrySet()) {
        assertContent(held.getValue(), stable.get(held.getKey()), "input opened before the growths: " + held.getKey());
        held.getValue().close();
      }
      assertNoExtentSpansChunks(dir, heap);
      assertContents(dir, stable);
      assertContents(dir, secondWriter);
      assertContents(dir, grower);
      PoolAccounting.assertAccounted(dir, "after concurrent growth");
    }
  }

  /**
   * What the pool can still grow by: up to the maximum and the file system's usable space less the
   * margin, in whole blocks; 0 without growth, and at the maximum without asking the file system.
   */
  public void testGrowableBytes() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    AtomicLong usable = new AtomicLong(Long.MAX_VALUE);
    FileSystemRoom.UsableSpace space =
        f -> {
          asked.incrementAndGet();
          return usable.get();
        };
    try (NvmHeap heap = NvmHeap.open(pool(), MIB)) {
      try (NvmDirectory off = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        assertEquals(0, off.growableBytes());
      }
      try (NvmDirectory dir = directory(heap, new PoolGrowth(4 * MIB, MIB, 0, 0), space)) {
        assertEquals("up to the maximum", 3 * MIB, dir.growableBytes());
      }
      usable.set(2 * MIB + 5000);
      try (NvmDirectory dir = directory(heap, new PoolGrowth(4 * MIB, MIB, 0, MIB), space)) {
        assertEquals("the file system's room less the margin, in blocks", MIB + 4096, dir.growableBytes());
      }
      try (NvmDirectory dir = directory(heap, PoolGrowth.unbounded(), space)) {
        assertEquals(PoolGrowth.UNBOUNDED, PoolGrowth.unbounded().maxBytes());
        assertEquals("no room beyond the default margin", 0, dir.growableBytes());
        usable.set(PoolGrowth.DEFAULT_FILE_SYSTEM_MARGIN_BYTES + 7 * MIB);
      }
      try (NvmDirectory dir = directory(heap, PoolGrowth.unbounded(), space)) {
        assertEquals("no maximum: the file system's room", 7 * MIB, dir.growableBytes());
      }
      asked.set(0);
      try (NvmDirectory dir = directory(heap, new PoolGrowth(MIB, 4096, 0, 0), space)) {
        assertEquals("at the maximum", 0, dir.growableBytes());
        assertEquals("the file system is not asked at the maximum", 0, asked.get());
      }
    }
  }

  /**
   * A pool below its watermark that cannot grow (the file system keeps only the margin) asks the
   * file system at most once per interval, not on every allocation; its own growths lower the
   * figure between readings.
   */
  public void testFileSystemIsAskedAtMostOncePerInterval() throws Exception {
    long margin = 10 * MIB;
    AtomicInteger asked = new AtomicInteger();
    AtomicLong disk = new AtomicLong(margin + MIB); // room for the pool file and the margin only
    FileSystemRoom.UsableSpace space =
        f -> {
          asked.incrementAndGet();
          return disk.get() - Files.size(f);
        };
    AtomicLong clock = new AtomicLong();
    long interval = 1_000_000_000L;
    FileSystemRoom room = new FileSystemRoom(space, interval, clock::get);
    Map<String, byte[]> written = new TreeMap<>();
    try (NvmHeap heap = NvmHeap.open(pool(), MIB);
        NvmDirectory dir =
            new NvmDirectory(heap, new SingleInstanceLockFactory(), new PoolGrowth(8 * MIB, MIB, 90, margin), room)) {
      for (int i = 0; i < 40; i++) {
        write(dir, "f" + i, bytes(4096), written);
        assertEquals(0, dir.growableBytes());
      }
      assertEquals(MIB, heap.size());
      assertEquals("one reading for 40 allocations below the watermark", 1, asked.get());
      clock.addAndGet(interval);
      write(dir, "next-interval", bytes(4096), written);
      assertEquals("one more reading once the interval passed", 2, asked.get());

      disk.addAndGet(2 * MIB); // the file system now has room: seen at the next reading
      clock.addAndGet(interval);
      write(dir, "grows", bytes(4096), written);
      assertEquals("grew by one step", 2 * MIB, heap.size());
      assertEquals(3, asked.get());
      assertEquals("its own growth counted without a reading", MIB, dir.growableBytes());
      assertEquals(3, asked.get());
      assertContents(dir, written);
    }
  }

  public void testPoolGrowthSettingsAreValidated() {
    assertFalse(PoolGrowth.OFF.enabled());
    assertTrue(PoolGrowth.upTo(MIB).enabled());
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> new PoolGrowth(MIB, 100, 10, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("stepBytes must be >= 4096, got 100"));
    e = expectThrows(IllegalArgumentException.class, () -> new PoolGrowth(MIB, MIB, 100, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("freeWatermarkPercent must be in [0, 100), got 100"));
    e = expectThrows(IllegalArgumentException.class, () -> new PoolGrowth(-1, MIB, 10, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("maxBytes must be >= 0"));
    e = expectThrows(IllegalArgumentException.class, () -> new PoolGrowth(MIB, MIB, 10, -5));
    assertTrue(e.getMessage(), e.getMessage().contains("fileSystemMarginBytes must be >= 0, got -5"));
    expectThrows(IllegalArgumentException.class, () -> PoolGrowth.upTo(0));
  }

  public void testWithoutGrowthAFullPoolSaysGrowthIsOff() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool(), MIB)) {
      PoolFullException e =
          expectThrows(PoolFullException.class, () -> write(dir, "too-big", bytes((int) (2 * MIB)), new TreeMap<>()));
      assertTrue(e.getMessage(), e.getMessage().contains("online growth is off"));
      assertEquals(MIB, dir.heap().size());
    }
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random().nextBytes(bytes);
    return bytes;
  }

  private static void write(NvmDirectory dir, String name, byte[] content, Map<String, byte[]> written)
      throws IOException {
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      for (int offset = 0; offset < content.length; ) {
        int chunk = Math.min(content.length - offset, 1 + (offset * 31 + content.length) % 40_000);
        out.writeBytes(content, offset, chunk);
        offset += chunk;
      }
    }
    written.put(name, content);
  }

  private static void assertContents(NvmDirectory dir, Map<String, byte[]> files) throws IOException {
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      try (IndexInput in = dir.openInput(e.getKey(), IOContext.DEFAULT)) {
        assertContent(in, e.getValue(), e.getKey());
      }
    }
  }

  private static void assertContent(IndexInput in, byte[] expected, String what) throws IOException {
    assertEquals(what + ": length", expected.length, in.length());
    in.seek(0);
    byte[] read = new byte[expected.length];
    in.readBytes(read, 0, read.length);
    assertArrayEquals(what + ": bytes", expected, read);
  }

  /** Every extent of every file lies within one chunk of {@code heap}. */
  private static void assertNoExtentSpansChunks(NvmDirectory dir, NvmHeap heap) throws IOException {
    long[] ends = heap.chunkEnds();
    for (String name : dir.listAll()) {
      NvmFile file = dir.closedFile(name);
      for (int i = 0; i < file.extentCount(); i++) {
        long start = file.extentOffset(i);
        long end = start + ExtentAllocator.blocks(file.extentLength(i));
        for (long boundary : ends) {
          assertFalse(
              name + ": extent [" + start + ", " + end + ") spans the chunk boundary at " + boundary,
              start < boundary && end > boundary);
        }
      }
    }
  }
}
