package org.lucenenvm.store;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many files of an {@link NvmDirectory} name each extent, keyed by the extent's offset. A file
 * cloned by {@link NvmDirectory#copyFrom} names exactly the extents of its source, so an extent
 * may belong to several files; it goes back to the {@link ExtentAllocator} only when the last file
 * naming it is released (deleted, a published table no longer naming it, and its last reader
 * closed: see {@link NvmFile#decRef}).
 *
 * <p>Like the free-space map, the counts are volatile: {@link #rebuild} recomputes them from the
 * published file table when the pool opens, marking each extent used once however many files name
 * it. Files share whole extents only, so a table in which two extents overlap without being the
 * same extent is damaged. Thread-safe (every method is synchronized; lock order: the directory's
 * metadata lock, then this, then the allocator).
 */
final class SharedExtents {
  private final ExtentAllocator allocator;
  /** Extent offset → number of files naming it; guarded by this. */
  private final Map<Long, Integer> counts = new HashMap<>();

  SharedExtents(ExtentAllocator allocator) {
    this.allocator = allocator;
  }

  /**
   * Counts the extents of the files of a table read from the pool, each named by N files with
   * count N, and marks each used once in the allocator. Called once, on open, before any other
   * method.
   *
   * @throws IOException naming both files if two extents overlap without being the same extent
   */
  synchronized void rebuild(Map<String, NvmFile> files) throws IOException {
    TreeMap<Long, Named> extents = new TreeMap<>();
    for (Map.Entry<String, NvmFile> e : files.entrySet()) {
      NvmFile file = e.getValue();
      for (int i = 0; i < file.extentCount(); i++) {
        Named extent = new Named(e.getKey(), file.extentOffset(i), file.extentLength(i));
        if (extent.length() == 0) {
          continue;
        }
        Named same = extents.get(extent.offset());
        if (same != null) {
          if (same.length() != extent.length()) {
            throw overlap(same, extent);
          }
          continue;
        }
        Map.Entry<Long, Named> before = extents.lowerEntry(extent.offset());
        if (before != null && before.getValue().end() > extent.offset()) {
          throw overlap(before.getValue(), extent);
        }
        Map.Entry<Long, Named> after = extents.higherEntry(extent.offset());
        if (after != null && extent.end() > after.getKey()) {
          throw overlap(after.getValue(), extent);
        }
        extents.put(extent.offset(), extent);
      }
    }
    for (Named extent : extents.values()) {
      allocator.markUsed(extent.offset(), extent.length());
    }
    files.values().forEach(this::countNamesOf);
  }

  private void countNamesOf(NvmFile file) {
    for (int i = 0; i < file.extentCount(); i++) {
      if (file.extentLength(i) > 0) {
        counts.merge(file.extentOffset(i), 1, Integer::sum);
      }
    }
  }

  private static IOException overlap(Named a, Named b) {
    return new IOException(
        "files " + a.file() + " and " + b.file() + " name partially overlapping extents " + a + " and " + b);
  }

  /** Counts a new file, whose extents were just allocated to it and to no other file. */
  synchronized void addNew(NvmFile file) {
    for (int i = 0; i < file.extentCount(); i++) {
      if (file.extentLength(i) > 0 && counts.containsKey(file.extentOffset(i))) {
        throw new IllegalStateException(
            "new extent at offset " + file.extentOffset(i) + " is already named by " + counts.get(file.extentOffset(i))
                + " file(s)");
      }
    }
    countNamesOf(file);
  }

  /** Counts a clone: one more file naming extents that files already name. */
  synchronized void addClone(NvmFile file) {
    for (int i = 0; i < file.extentCount(); i++) {
      if (file.extentLength(i) > 0 && !counts.containsKey(file.extentOffset(i))) {
        throw new IllegalStateException("cloned extent at offset " + file.extentOffset(i) + " is named by no file");
      }
    }
    countNamesOf(file);
  }

  /** Uncounts a released file; frees each extent no file names any more. */
  synchronized void release(NvmFile file) {
    for (int i = 0; i < file.extentCount(); i++) {
      long offset = file.extentOffset(i);
      long length = file.extentLength(i);
      if (length == 0) {
        continue;
      }
      Integer count = counts.get(offset);
      if (count == null) {
        throw new IllegalStateException("extent at offset " + offset + " released more often than it was named");
      }
      if (count == 1) {
        counts.remove(offset);
        allocator.free(offset, length);
      } else {
        counts.put(offset, count - 1);
      }
    }
  }

  /** Files naming the extent at {@code offset} (0 if it is not a file's). */
  synchronized int references(long offset) {
    return counts.getOrDefault(offset, 0);
  }

  /** An extent and the file that named it first, for messages. */
  private record Named(String file, long offset, long length) {
    long end() {
      return offset + ExtentAllocator.blocks(length);
    }

    @Override
    public String toString() {
      return "[" + offset + ", " + (offset + length) + ")";
    }
  }
}
