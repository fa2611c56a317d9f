package org.lucenenvm.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The heap's header, root slots and every way a pool can be refused. */
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
    try (NvmHeap heap = NvmHeap.open(file, SIZE, NvmHeap.OpenMode.OPEN, new LlplPoolBackend())) {
      assertEquals(77L, heap.root(1));
      heap.publishRoot(1, 78L);
    }
    try (NvmHeap heap = NvmHeap.open(file, SIZE, NvmHeap.OpenMode.OPEN, new FfmPoolBackend())) {
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

  public void testPoolSmallerThanRequested() throws Exception {
    Path file = createdPool();
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmHeap.open(file, 2 * SIZE));
    assertTrue(e.getMessage(), e.getMessage().contains("smaller than the requested"));
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

  private static void patchInt(Path file, int offset, int value) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
      ch.write(b, offset);
    }
  }
}
