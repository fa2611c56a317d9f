package org.lucenenvm.store;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * An {@link NvmIndexInput} over a file spread over several extents (the pool had no contiguous
 * room when it was written). Sequential reads run within the current segment and switch to the
 * next at its end; positional reads find their segment by binary search over the segments' start
 * positions.
 */
final class MultiSegmentInput extends NvmIndexInput {
  private final MemorySegment[] segments;
  /** Position (in this input) where each segment starts. */
  private final long[] starts;

  private int segmentIndex;

  MultiSegmentInput(String description, MemorySegment[] segments, Runnable closer) {
    super(description, segments[0], totalSize(segments), closer);
    this.segments = segments;
    this.starts = new long[segments.length];
    long start = 0;
    for (int i = 0; i < segments.length; i++) {
      starts[i] = start;
      start += segments[i].byteSize();
    }
  }

  private static long totalSize(MemorySegment[] segments) {
    long total = 0;
    for (MemorySegment segment : segments) {
      total += segment.byteSize();
    }
    return total;
  }

  @Override
  void nextSegment() throws EOFException {
    while (currentPosition >= current.byteSize()) {
      if (segmentIndex + 1 >= segments.length) {
        throw pastEof("read", getFilePointer());
      }
      segmentIndex++;
      current = segments[segmentIndex];
      currentPosition = 0;
    }
  }

  @Override
  void readBytesAcrossSegments(byte[] b, int offset, int len) throws IOException {
    if (len > length - getFilePointer()) {
      throw pastEof("read", getFilePointer() + len);
    }
    while (len > 0) {
      nextSegment();
      int chunk = (int) Math.min(len, current.byteSize() - currentPosition);
      MemorySegment.copy(current, BYTE, currentPosition, b, offset, chunk);
      currentPosition += chunk;
      offset += chunk;
      len -= chunk;
    }
  }

  @Override
  public long getFilePointer() {
    return starts[segmentIndex] + currentPosition;
  }

  @Override
  public void seek(long pos) throws IOException {
    if (pos < 0 || pos > length) {
      throw new EOFException("seek to " + pos + " outside [0, " + length + "]: " + this);
    }
    int index = segmentFor(pos);
    segmentIndex = index;
    current = segments[index];
    currentPosition = pos - starts[index];
  }

  /** The segment holding {@code pos}; {@code length} maps to the end of the last segment. */
  private int segmentFor(long pos) {
    int i = Arrays.binarySearch(starts, pos);
    int index = i >= 0 ? i : -i - 2;
    return Math.min(Math.max(index, 0), segments.length - 1);
  }

  @Override
  public byte readByte(long pos) throws IOException {
    try {
      int index = segmentFor(pos);
      return segments[index].get(BYTE, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readBytes(long pos, byte[] b, int offset, int len) throws IOException {
    if (pos < 0 || len > length - pos) {
      throw pastEof("read", pos + len);
    }
    try {
      while (len > 0) {
        int index = segmentFor(pos);
        long from = pos - starts[index];
        int chunk = (int) Math.min(len, segments[index].byteSize() - from);
        MemorySegment.copy(segments[index], BYTE, from, b, offset, chunk);
        pos += chunk;
        offset += chunk;
        len -= chunk;
      }
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public short readShort(long pos) throws IOException {
    try {
      int index = segmentFor(pos);
      return segments[index].get(LE_SHORT, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      return (short) ((readByte(pos) & 0xFF) | (readByte(pos + 1) & 0xFF) << 8);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public int readInt(long pos) throws IOException {
    try {
      int index = segmentFor(pos);
      return segments[index].get(LE_INT, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      return (readShort(pos) & 0xFFFF) | (readShort(pos + 2) & 0xFFFF) << 16;
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public long readLong(long pos) throws IOException {
    try {
      int index = segmentFor(pos);
      return segments[index].get(LE_LONG, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      return (readInt(pos) & 0xFFFFFFFFL) | ((long) readInt(pos + 4)) << 32;
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  MemorySegment segmentSlice(long pos, long len) {
    int index = segmentFor(pos);
    long from = pos - starts[index];
    MemorySegment segment = segments[index];
    if (len > segment.byteSize() - from) {
      return null;
    }
    return segment.asSlice(from, len);
  }

  @Override
  public MultiSegmentInput clone() {
    MultiSegmentInput clone = new MultiSegmentInput(toString(), segments, null);
    clone.segmentIndex = segmentIndex;
    clone.current = current;
    clone.currentPosition = currentPosition;
    return clone;
  }

  @Override
  NvmIndexInput buildSlice(String description, long offset, long length) {
    int first = segmentFor(offset);
    int last = length == 0 ? first : segmentFor(offset + length - 1);
    MemorySegment[] parts = new MemorySegment[last - first + 1];
    for (int i = first; i <= last; i++) {
      long from = Math.max(offset, starts[i]) - starts[i];
      long to = Math.min(offset + length, starts[i] + segments[i].byteSize()) - starts[i];
      parts[i - first] = segments[i].asSlice(from, Math.max(0, to - from));
    }
    return NvmIndexInput.open(description, parts, null);
  }
}
