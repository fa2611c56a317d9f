package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The heap's header, root slots, growth in place and every way a pool can be refused. */
public class TestNvmHeap extends LuceneTestCase {
  private static final long SIZE = 1 << 20;

  private Path pool() throws IOException {
    return PoolPaths.poolIn(createTempDir("heap"));
  }

  public void testCreateCloseReopenKeepsRoots() throws Exception {
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, SIZE)) {
      assertTrue(heap.wasCreated());
      assertEquals(SIZE, heap.size());
      assertEquals(SIZE, Files.size(file));
      heap.publishRoot(3, 12345L);
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertFalse(heap.wasCreated());
      assertTrue(heap.openedAfterCleanShutdown());
      assertEquals(SIZE, heap.size());
      assertEquals(12345L, heap.root(3));
    }
  }

  public void testBothBackendsReadEachOthersPools() throws Exception {
    String reason = LlplPoolBackend.unavailableReason();
    assumeTrue("llpl backend unavailable: " + reason, reason == null);
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, new FfmPoolBackend())) {
      heap.publishRoot(1, 77L);
    }
    try (NvmHeap heap = NvmHeap.open(file, 2 * SIZE, NvmHeap.OpenMode.OPEN, new LlplPoolBackend())) {
      assertEquals("grown by llpl", 2 * SIZE, heap.size());
      assertEquals(77L, heap.root(1));
      heap.publishRoot(1, 78L);
    }
    try (NvmHeap heap = NvmHeap.open(file, 0, NvmHeap.OpenMode.OPEN, new FfmPoolBackend())) {
      assertEquals(2 * SIZE, heap.size());
      assertEquals(78L, heap.root(1));
    }
  }

  public void testWrongMagicIsRefusedAndLeftAlone() throws Exception {
    Path file = pool();
    byte[] garbage = new byte[8192];
    random().nextBytes(garbage);
    garbage[0] = 'x';
    Files.write(file, garbage);
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, SIZE));
    assertTrue(e.getMessage(), e.getMessage().contains(file.toString()));
    assertTrue(e.getMessage(), e.getMessage().contains("wrong magic"));
    assertArrayEquals(garbage, Files.readAllBytes(file));
  }

  public void testFormatModeOverwritesOnRequest() throws Exception {
    Path file = pool();
    Files.write(file, "not a pool at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (NvmHeap heap = NvmHeap.open(file, SIZE, NvmHeap.OpenMode.FORMAT, new FfmPoolBackend())) {
      assertTrue(heap.wasCreated());
      assertEquals(0L, heap.root(NvmHeap.DIRECTORY_ROOT));
    }
  }

  public void testWrongVersion() throws Exception {
    Path file = createdPool();
    patchInt(file, 8, 7);
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, SIZE));
    assertTrue(e.getMessage(), e.getMessage().contains("format version 7"));
  }

  public void testDamagedHeaderFailsChecksum() throws Exception {
    Path file = createdPool();
    patchInt(file, 24, 42); // creation time
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, SIZE));
    assertTrue(e.getMessage(), e.getMessage().contains("checksum mismatch"));
  }

  public void testTruncatedPool() throws Exception {
    Path file = createdPool();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(SIZE / 2);
    }
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("truncated"));
  }

  public void testPoolSmallerThanRequestedGrowsInPlace() throws Exception {
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, SIZE)) {
      heap.publishRoot(2, 4242L);
      heap.segment(SIZE - 8, 8).set(ValueLayout.JAVA_LONG, 0, 99L);
      heap.persist(SIZE - 8, 8);
    }
    try (NvmHeap heap = NvmHeap.open(file, 3 * SIZE)) {
      assertFalse(heap.wasCreated());
      assertTrue(heap.openedAfterCleanShutdown());
      assertEquals(SIZE, heap.sizeBeforeOpen());
      assertEquals(3 * SIZE, heap.size());
      assertEquals(3 * SIZE, Files.size(file));
      assertEquals(4242L, heap.root(2));
      assertEquals(99L, heap.segment(SIZE - 8, 8).get(ValueLayout.JAVA_LONG, 0));
      MemorySegment zeros = MemorySegment.ofArray(new byte[(int) (2 * SIZE)]);
      assertEquals("the new space is zero", -1, heap.segment(SIZE, 2 * SIZE).mismatch(zeros));
      heap.segment(3 * SIZE - 8, 8).set(ValueLayout.JAVA_LONG, 0, 7L);
      heap.persist(3 * SIZE - 8, 8);
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(3 * SIZE, heap.size());
      assertEquals(3 * SIZE, heap.sizeBeforeOpen());
      assertEquals(7L, heap.segment(3 * SIZE - 8, 8).get(ValueLayout.JAVA_LONG, 0));
    }
  }

  public void testGrownDirectoryKeepsItsFilesAndAllocatesFromTheNewSpace() throws Exception {
    Path file = pool();
    byte[] content = new byte[100_000];
    random().nextBytes(content);
    long freeBefore;
    try (NvmDirectory dir = NvmDirectory.open(file, SIZE)) {
      try (IndexOutput out = dir.createOutput("kept", IOContext.DEFAULT)) {
        out.writeBytes(content, content.length);
      }
      dir.sync(List.of("kept"));
      freeBefore = dir.freeBytes();
    }
    try (NvmDirectory dir = NvmDirectory.open(file, 4 * SIZE)) {
      assertEquals(freeBefore + 3 * SIZE, dir.freeBytes());
      try (IndexInput in = dir.openInput("kept", IOContext.READONCE)) {
        byte[] read = new byte[content.length];
        in.readBytes(read, 0, read.length);
        assertArrayEquals(content, read);
      }
      byte[] big = new byte[(int) (2 * SIZE)]; // more than the old pool
      try (IndexOutput out = dir.createOutput("big", IOContext.DEFAULT)) {
        out.writeBytes(big, big.length);
      }
      dir.sync(List.of("big"));
    }
    try (NvmDirectory dir = NvmDirectory.open(file, 0)) {
      assertEquals(2 * SIZE, dir.fileLength("big"));
      assertEquals(content.length, dir.fileLength("kept"));
    }
  }

  public void testSmallerRequestedSizeKeepsThePool() throws Exception {
    Path file = createdPool();
    try (NvmHeap heap = NvmHeap.open(file, SIZE / 2)) {
      assertEquals("a pool never shrinks", SIZE, heap.size());
    }
    assertEquals(SIZE, Files.size(file));
  }

  public void testGrowthTheFileSystemCannotHoldIsRefusedAndChangesNothing() throws Exception {
    Path file = createdPool();
    byte[] before = Files.readAllBytes(file);
    long huge = 1L << 60;
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, huge));
    assertTrue(e.getMessage(), e.getMessage().contains(file.toString()));
    assertTrue(e.getMessage(), e.getMessage().contains("cannot grow from " + SIZE + " to " + huge + " bytes"));
    assertTrue(e.getMessage(), e.getMessage().contains("bytes free"));
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  /** A file extended by a growth that a crash interrupted before the header changed. */
  public void testInterruptedExtensionLeavesTheOldPool() throws Exception {
    Path file = createdPool();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(4096), SIZE + SIZE / 2 - 4096);
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(SIZE, heap.size());
    }
    try (NvmHeap heap = NvmHeap.open(file, 2 * SIZE)) {
      assertEquals(2 * SIZE, heap.size());
      assertEquals(2 * SIZE, Files.size(file));
    }
  }

  /**
   * Size and checksum are two 8-byte words: a power failure may keep one of them only. Either half
   * opens, as the size its checksum matches, and the open makes the header whole again.
   */
  public void testTornSizeSwitchOpensAsEitherSize() throws Exception {
    Path file = createdPool();
    long oldChecksum = readLong(file, 32);
    NvmHeap.open(file, 2 * SIZE).close();
    long newChecksum = readLong(file, 32);
    assertEquals(SIZE, readLong(file, 48));
    assertEquals(2 * SIZE, readLong(file, 56));

    patchLong(file, 32, oldChecksum); // the new size survived, its checksum did not
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(SIZE, heap.size());
    }
    assertEquals("repaired", SIZE, readLong(file, 16));
    assertEquals("repaired", oldChecksum, readLong(file, 32));

    NvmHeap.open(file, 2 * SIZE).close();
    patchLong(file, 16, SIZE); // the new checksum survived, the size did not
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(2 * SIZE, heap.size());
    }
    assertEquals("repaired", 2 * SIZE, readLong(file, 16));
    assertEquals(newChecksum, readLong(file, 32));

    patchLong(file, 32, oldChecksum); // a torn header that is asked to grow further
    try (NvmHeap heap = NvmHeap.open(file, 4 * SIZE)) {
      assertEquals(SIZE, heap.sizeBeforeOpen());
      assertEquals(4 * SIZE, heap.size());
    }
    try (NvmHeap heap = NvmHeap.open(file, 0)) {
      assertEquals(4 * SIZE, heap.size());
    }
  }

  public void testDamageIsNotMistakenForATornGrowth() throws Exception {
    Path file = createdPool();
    long oldChecksum = readLong(file, 32);
    NvmHeap.open(file, 2 * SIZE).close();
    patchInt(file, 24, 42); // creation time: no recorded size makes the checksum match
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("checksum mismatch"));

    Path torn = createdPool();
    NvmHeap.open(torn, 2 * SIZE).close();
    patchLong(torn, 32, oldChecksum);
    patchLong(torn, 48, 5 * SIZE); // a torn switch whose record is damaged too
    e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(torn, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("checksum mismatch"));
  }

  public void testMissingPoolInOpenMode() throws Exception {
    Path file = pool();
    InvalidPoolException e =
        expectThrows(
            InvalidPoolException.class,
            () -> NvmHeap.open(file, SIZE, NvmHeap.OpenMode.OPEN, new FfmPoolBackend()));
    assertTrue(e.getMessage(), e.getMessage().contains("does not exist"));
  }

  public void testAlreadyOpenInThisProcess() throws Exception {
    Path file = pool();
    try (NvmHeap heap = NvmHeap.open(file, SIZE)) {
      InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, SIZE));
      assertTrue(e.getMessage(), e.getMessage().contains("already open in this process"));
      assertNotNull(heap);
    }
  }

  public void testAlreadyOpenInAnotherProcess() throws Exception {
    Path file = pool();
    try (ChildJvm holder = new ChildJvm(PoolHolder.class, file.toString(), Long.toString(SIZE))) {
      assertEquals("READY " + SIZE, holder.readLine());
      InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, SIZE));
      assertTrue(e.getMessage(), e.getMessage().contains("already open in another process"));
      holder.kill();
      try (NvmHeap heap = NvmHeap.open(file, SIZE)) {
        assertFalse("the killed holder never closed the pool", heap.openedAfterCleanShutdown());
      }
    }
  }

  public void testInterruptedFormatIsBlank() throws Exception {
    Path file = createdPool();
    byte[] before = Files.readAllBytes(file);
    Arrays.fill(before, 0, 8, (byte) 0); // magic is written last by format
    Files.write(file, before);
    try (NvmHeap heap = NvmHeap.open(file, SIZE)) {
      assertTrue(heap.wasCreated());
    }
  }

  private Path createdPool() throws IOException {
    Path file = pool();
    NvmHeap.open(file, SIZE).close();
    return file;
  }

  private static long readLong(Path file, int offset) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(b, offset);
      return b.getLong(0);
    }
  }

  private static void patchLong(Path file, int offset, long value) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
    }
  }

  private static void patchInt(Path file, int offset, int value) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
      ch.write(b, offset);
    }
  }
}
