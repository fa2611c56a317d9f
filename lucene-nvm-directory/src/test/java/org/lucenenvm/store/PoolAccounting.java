package org.lucenenvm.store;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * Test oracle for an {@link NvmDirectory}'s space: the extents its closed files name, each counted
 * once however many files share it, and the file-table blocks.
 */
final class PoolAccounting {
  private PoolAccounting() {}

  /**
   * The extents of every file of {@code dir} (no output may be open), offset → {length, files
   * naming it}. Fails if two files name the same offset with different lengths, or two different
   * extents overlap.
   */
  static TreeMap<Long, long[]> extents(NvmDirectory dir, String where) throws IOException {
    TreeMap<Long, long[]> extents = new TreeMap<>();
    for (String name : dir.listAll()) {
      NvmFile file = dir.closedFile(name);
      for (int i = 0; i < file.extentCount(); i++) {
        long offset = file.extentOffset(i);
        long length = file.extentLength(i);
        long[] known = extents.computeIfAbsent(offset, o -> new long[] {length, 0});
        assertEquals(where + ": length of the extent at " + offset + " in " + name, known[0], length);
        known[1]++;
      }
    }
    long end = 0;
    for (Map.Entry<Long, long[]> e : extents.entrySet()) {
      assertTrue(where + ": extent at " + e.getKey() + " overlaps the one before (ending at " + end + ")", e.getKey() >= end);
      end = e.getKey() + ExtentAllocator.blocks(e.getValue()[0]);
    }
    return extents;
  }

  /**
   * Asserts that free bytes plus used bytes (each distinct extent once, the file table and its
   * spare block) make the pool's capacity, and that each extent's reference count is the number of
   * files naming it. No input may be open on a deleted file.
   */
  static void assertAccounted(NvmDirectory dir, String where) throws IOException {
    long used = tableBytes(dir);
    for (Map.Entry<Long, long[]> e : extents(dir, where).entrySet()) {
      used += ExtentAllocator.blocks(e.getValue()[0]);
      assertEquals(where + ": references of the extent at " + e.getKey(), e.getValue()[1], dir.extentReferences(e.getKey()));
    }
    assertEquals(where + ": free + used bytes", capacity(dir), dir.freeBytes() + used);
  }

  /** Bytes of the published file table and its spare block (0 before the first publication). */
  static long tableBytes(NvmDirectory dir) throws IOException {
    long root = dir.heap().root(NvmHeap.DIRECTORY_ROOT);
    if (root == 0) {
      return 0;
    }
    FileTable.Decoded table = FileTable.read(dir.heap(), root);
    return table.capacity() + table.spareCapacity();
  }

  /** Bytes the pool can allocate to files and tables. */
  static long capacity(NvmDirectory dir) {
    return dir.heap().size() / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK - NvmHeap.HEADER_SIZE;
  }

  static byte[] read(NvmDirectory dir, String name) throws IOException {
    try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
      byte[] bytes = new byte[Math.toIntExact(in.length())];
      in.readBytes(bytes, 0, bytes.length);
      return bytes;
    }
  }
}
