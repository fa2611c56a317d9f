package org.lucenenvm.codec;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;

/**
 * The memory segments a memory-segment-backed file is made of, in file order: one for a file
 * mapped as a whole, several for an {@code NvmDirectory} file in several extents or an {@code
 * MMapDirectory} file in several chunks. {@link MemorySegmentAccessInput} does not list them, so
 * {@link #of} finds each segment's end by asking for ever longer slices ({@link
 * MemorySegmentAccessInput#segmentSliceOrNull} answers null for a range that crosses segments): a
 * binary search per segment, once per file when a reader opens it.
 *
 * @param parts the segments, each one contiguous range of the file
 * @param starts file pointer of the first byte of each segment
 */
record FileSegments(MemorySegment[] parts, long[] starts) {

  /** The segments of {@code in}, or null if it is not memory-segment backed. */
  static FileSegments of(IndexInput in) throws IOException {
    if (in instanceof MemorySegmentAccessInput access) {
      long length = in.length();
      MemorySegment whole = access.segmentSliceOrNull(0, length);
      if (whole != null) {
        return new FileSegments(new MemorySegment[] {whole}, new long[] {0});
      }
      List<MemorySegment> parts = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      for (long start = 0; start < length; ) {
        long end = segmentEnd(access, start, length);
        if (end == start) {
          return null;
        }
        parts.add(access.segmentSliceOrNull(start, end - start));
        starts.add(start);
        start = end;
      }
      return new FileSegments(
          parts.toArray(MemorySegment[]::new), starts.stream().mapToLong(Long::longValue).toArray());
    }
    return null;
  }

  /** The end of the segment holding {@code start}: the largest end with a slice that is not null. */
  private static long segmentEnd(MemorySegmentAccessInput access, long start, long length)
      throws IOException {
    long low = start;
    long high = length;
    while (low < high) {
      long mid = low + (high - low + 1) / 2;
      if (access.segmentSliceOrNull(start, mid - start) != null) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /** Whether the file is one segment. */
  boolean isSingle() {
    return parts.length == 1;
  }

  /** Index of the segment holding file pointer {@code fp}. */
  int indexOf(long fp) {
    int index = Arrays.binarySearch(starts, fp);
    return index >= 0 ? index : -index - 2;
  }
}
