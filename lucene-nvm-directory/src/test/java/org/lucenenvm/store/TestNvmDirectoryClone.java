package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.TrackingDirectoryWrapper;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Zero-copy clones by {@link NvmDirectory#copyFrom}: a clone names its source's extents, copies no
 * byte, and the shared extents are freed only when the last file naming them is released.
 */
public class TestNvmDirectoryClone extends LuceneTestCase {
  private static final long POOL_SIZE = 16L * 1024 * 1024;

  private Path pool;
  private NvmDirectory dir;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    pool = PoolPaths.poolIn(createTempDir("clone"));
    dir = NvmDirectory.open(pool, POOL_SIZE);
  }

  @Override
  public void tearDown() throws Exception {
    dir.close();
    super.tearDown();
  }

  private byte[] write(Directory directory, String name, int length) throws IOException {
    byte[] content = new byte[length];
    random().nextBytes(content);
    try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
      out.writeBytes(content, content.length);
    }
    return content;
  }

  public void testCloneSharesExtentsAndWritesNothing() throws Exception {
    byte[] content = write(dir, "src", 100_000);
    dir.sync(List.of("src"));
    long written = dir.bytesWritten();
    long free = dir.freeBytes();
    assertEquals(100_000, written);

    dir.copyFrom(dir, "src", "dst", IOContext.DEFAULT);

    assertEquals("a clone writes no byte", written, dir.bytesWritten());
    assertEquals("a clone takes no space", free, dir.freeBytes());
    assertArrayEquals(content, PoolAccounting.read(dir, "dst"));
    assertEquals(100_000, dir.fileLength("dst"));
    assertEquals(List.of("dst", "src"), List.of(dir.listAll()));
    NvmFile src = dir.closedFile("src");
    NvmFile dst = dir.closedFile("dst");
    assertEquals(src.extentCount(), dst.extentCount());
    for (int i = 0; i < src.extentCount(); i++) {
      assertEquals(src.extentOffset(i), dst.extentOffset(i));
      assertEquals(src.extentLength(i), dst.extentLength(i));
      assertEquals(2, dir.extentReferences(src.extentOffset(i)));
    }
    PoolAccounting.assertAccounted(dir, "after the clone");
  }

  /** Free bytes not counting the file-table blocks, which the first publications allocate. */
  private long freeForFiles() throws IOException {
    return dir.freeBytes() + PoolAccounting.tableBytes(dir);
  }

  public void testDeletingEitherLeavesTheOtherReadable() throws Exception {
    for (boolean sourceFirst : new boolean[] {true, false}) {
      byte[] content = write(dir, "src", 50_000);
      if (random().nextBoolean()) {
        dir.sync(List.of("src"));
      }
      long freeBefore = freeForFiles() + ExtentAllocator.blocks(50_000);
      dir.copyFrom(dir, "src", "dst", IOContext.DEFAULT);
      if (random().nextBoolean()) {
        dir.sync(List.of("dst"));
      }
      String first = sourceFirst ? "src" : "dst";
      String second = sourceFirst ? "dst" : "src";
      dir.deleteFile(first);
      assertEquals("the shared extents stay allocated", freeBefore - ExtentAllocator.blocks(50_000), freeForFiles());
      assertArrayEquals(content, PoolAccounting.read(dir, second));
      PoolAccounting.assertAccounted(dir, "one deleted");
      dir.deleteFile(second);
      assertEquals("both deleted: the space is back", freeBefore, freeForFiles());
      assertEquals(PoolAccounting.capacity(dir), dir.freeBytes() + PoolAccounting.tableBytes(dir));
    }
  }

  public void testExtentsOutliveTheLastNameWhileARawReaderIsOpen() throws Exception {
    byte[] content = write(dir, "src", 20_000);
    dir.sync(List.of("src"));
    dir.copyFrom(dir, "src", "dst", IOContext.DEFAULT);
    long free = freeForFiles();
    try (IndexInput in = dir.openInput("src", IOContext.DEFAULT)) {
      dir.deleteFile("src");
      dir.deleteFile("dst");
      assertEquals("a reader holds the extents", free, freeForFiles());
      byte[] read = new byte[content.length];
      in.readBytes(read, 0, read.length);
      assertArrayEquals(content, read);
    }
    assertEquals(free + ExtentAllocator.blocks(20_000), freeForFiles());
  }

  public void testCloneOfACloneAndRename() throws Exception {
    byte[] content = write(dir, "a", 30_000);
    dir.copyFrom(dir, "a", "b", IOContext.DEFAULT);
    dir.copyFrom(dir, "b", "c", IOContext.DEFAULT);
    dir.rename("c", "d");
    NvmFile a = dir.closedFile("a");
    assertEquals(3, dir.extentReferences(a.extentOffset(0)));
    dir.deleteFile("a");
    dir.deleteFile("b");
    dir.sync(List.of("d"));
    assertArrayEquals(content, PoolAccounting.read(dir, "d"));
    PoolAccounting.assertAccounted(dir, "renamed clone of a clone");
    dir.close();
    dir = NvmDirectory.open(pool, 0);
    assertEquals(List.of("d"), List.of(dir.listAll()));
    assertArrayEquals(content, PoolAccounting.read(dir, "d"));
    PoolAccounting.assertAccounted(dir, "reopened");
  }

  public void testSharedExtentsCountedOnceAfterReopen() throws Exception {
    byte[] content = write(dir, "src", 70_000);
    dir.copyFrom(dir, "src", "c1", IOContext.DEFAULT);
    dir.copyFrom(dir, "src", "c2", IOContext.DEFAULT);
    dir.sync(List.of("src", "c1", "c2"));
    long free = dir.freeBytes();
    dir.close();
    dir = NvmDirectory.open(pool, 0);
    assertEquals(free, dir.freeBytes());
    assertEquals(3, dir.extentReferences(dir.closedFile("c2").extentOffset(0)));
    PoolAccounting.assertAccounted(dir, "reopened");
    dir.deleteFile("src");
    dir.deleteFile("c2");
    assertArrayEquals(content, PoolAccounting.read(dir, "c1"));
    dir.deleteFile("c1");
    assertEquals(PoolAccounting.capacity(dir), dir.freeBytes() + PoolAccounting.tableBytes(dir));
  }

  public void testCloneThroughWrappersKeepsTheCodecFooter() throws Exception {
    try (IndexOutput out = dir.createOutput("_0.doc", IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, "test", 0);
      out.writeBytes(new byte[10_000], 10_000);
      CodecUtil.writeFooter(out);
    }
    long written = dir.bytesWritten();
    TrackingDirectoryWrapper tracking = new TrackingDirectoryWrapper(dir);
    Directory wrapped = new FilterDirectory(dir) {};
    tracking.copyFrom(wrapped, "_0.doc", "_1.doc", IOContext.DEFAULT);
    assertEquals(written, dir.bytesWritten());
    assertEquals(java.util.Set.of("_1.doc"), tracking.getCreatedFiles());
    try (IndexInput in = dir.openInput("_1.doc", IOContext.READONCE)) {
      CodecUtil.checksumEntireFile(in);
    }
    assertEquals(dir.closedFile("_0.doc").extentOffset(0), dir.closedFile("_1.doc").extentOffset(0));
  }

  public void testByteCopyFromAnotherDirectory() throws Exception {
    try (ByteBuffersDirectory other = new ByteBuffersDirectory()) {
      byte[] content = write(other, "elsewhere", 40_000);
      long free = dir.freeBytes();
      dir.copyFrom(other, "elsewhere", "here", IOContext.DEFAULT);
      assertEquals(40_000, dir.bytesWritten());
      assertEquals(free - ExtentAllocator.blocks(40_000), dir.freeBytes());
      assertArrayEquals(content, PoolAccounting.read(dir, "here"));
      assertEquals(1, dir.extentReferences(dir.closedFile("here").extentOffset(0)));
    }
    try (NvmDirectory second = NvmDirectory.open(PoolPaths.poolIn(createTempDir("second")), POOL_SIZE)) {
      byte[] content = write(second, "f", 10_000);
      dir.copyFrom(second, "f", "g", IOContext.DEFAULT);
      assertArrayEquals("another pool: copied", content, PoolAccounting.read(dir, "g"));
      assertEquals(50_000, dir.bytesWritten());
    }
  }

  public void testErrorsAsLucene() throws Exception {
    write(dir, "src", 100);
    write(dir, "dst", 100);
    expectThrows(NoSuchFileException.class, () -> dir.copyFrom(dir, "missing", "x", IOContext.DEFAULT));
    expectThrows(FileAlreadyExistsException.class, () -> dir.copyFrom(dir, "src", "dst", IOContext.DEFAULT));
    try (IndexOutput open = dir.createOutput("open", IOContext.DEFAULT)) {
      expectThrows(FileAlreadyExistsException.class, () -> dir.copyFrom(dir, "src", "open", IOContext.DEFAULT));
      expectThrows(java.nio.file.AccessDeniedException.class, () -> dir.copyFrom(dir, "open", "y", IOContext.DEFAULT));
    }
    assertEquals(List.of("dst", "open", "src"), List.of(dir.listAll()));
    dir.close();
    expectThrows(org.apache.lucene.store.AlreadyClosedException.class, () -> dir.copyFrom(dir, "src", "z", IOContext.DEFAULT));
  }

  public void testEmptyFileClone() throws Exception {
    write(dir, "empty", 0);
    dir.copyFrom(dir, "empty", "empty2", IOContext.DEFAULT);
    assertEquals(0, dir.fileLength("empty2"));
    dir.sync(List.of("empty2"));
    dir.deleteFile("empty");
    assertEquals(0, PoolAccounting.read(dir, "empty2").length);
  }

  public void testPartiallyOverlappingExtentsAreDamage() throws Exception {
    long base = 1L << 20;
    long block = ExtentAllocator.BLOCK;
    assertDamaged(new long[] {base, 3 * block}, new long[] {base + block, 100}); // inside
    assertDamaged(new long[] {base, 2 * block}, new long[] {base, 100}); // same start, other length
    assertDamaged(new long[] {base + block, block}, new long[] {base, 2 * block + 1}); // straddling
  }

  /** A published table naming files "first" and "second" with these {offset, length} extents must not open. */
  private void assertDamaged(long[] first, long[] second) throws IOException {
    Path damaged = PoolPaths.poolIn(createTempDir("damaged"));
    try (NvmDirectory directory = NvmDirectory.open(damaged, POOL_SIZE)) {
      write(directory, "seed", 10);
      directory.sync(List.of("seed")); // a table exists: write a damaged one in its place
      long root = directory.heap().root(NvmHeap.DIRECTORY_ROOT);
      FileTable.Decoded table = FileTable.read(directory.heap(), root);
      Map<String, NvmFile> files = new java.util.TreeMap<>();
      files.put("first", new NvmFile(new long[] {first[0]}, new long[] {first[1]}, true));
      files.put("second", new NvmFile(new long[] {second[0]}, new long[] {second[1]}, true));
      FileTable.write(
          directory.heap().segment(root, table.capacity()),
          table.capacity(),
          table.generation() + 1,
          table.spareOffset(),
          table.spareCapacity(),
          files);
    }
    InvalidPoolException e = expectThrows(InvalidPoolException.class, () -> NvmDirectory.open(damaged, 0));
    assertTrue(e.getMessage(), e.getMessage().contains("files first and second name partially overlapping extents"));
  }
}
