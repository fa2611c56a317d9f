package org.lucenenvm.store;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * Reads an {@link NvmDirectory} file straight from the mapped pool: every read is a load from the
 * file's extents, nothing is copied into the Java heap except into the caller's arrays. A file
 * held by one extent (the usual case) reads through a single segment; a file spread over several
 * extents switches segments at their boundaries.
 *
 * <p>The views an input, its clones and its slices read through belong to an arena owned by the
 * input that {@link NvmDirectory#openInput} returned; closing it closes the arena, so clones and
 * slices then fail with {@link AlreadyClosedException} instead of reading extents that may have
 * been reused.
 */
final class NvmIndexInput extends IndexInput implements RandomAccessInput {
  static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
  static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfFloat LE_FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private final MemorySegment[] segments;
  /** Position (in this input) where each segment starts. */
  private final long[] starts;
  private final long length;
  /** Closes the arena and releases the file; set on the input the directory handed out only. */
  private final Runnable closer;

  private int segmentIndex;
  private MemorySegment current;
  private long currentPosition;

  /**
   * @param closer run (once) when the input returned by the directory closes; null for clones
   *     and slices, whose close does nothing
   */
  NvmIndexInput(String description, MemorySegment[] segments, Runnable closer) {
    super(description);
    this.segments = segments;
    this.starts = new long[segments.length];
    long total = 0;
    for (int i = 0; i < segments.length; i++) {
      starts[i] = total;
      total += segments[i].byteSize();
    }
    this.length = total;
    this.closer = closer;
    this.current = segments[0];
  }

  private AlreadyClosedException alreadyClosed(RuntimeException cause) {
    return new AlreadyClosedException("Already closed: " + this, cause);
  }

  @Override
  public byte readByte() throws IOException {
    try {
      byte b = current.get(BYTE, currentPosition);
      currentPosition++;
      return b;
    } catch (IndexOutOfBoundsException e) {
      nextSegment();
      return readByte();
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  private void nextSegment() throws EOFException {
    while (currentPosition >= current.byteSize()) {
      if (segmentIndex + 1 >= segments.length) {
        throw new EOFException("read past EOF: " + this);
      }
      segmentIndex++;
      current = segments[segmentIndex];
      currentPosition = 0;
    }
  }

  @Override
  public void readBytes(byte[] b, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(current, BYTE, currentPosition, b, offset, len);
      currentPosition += len;
    } catch (IndexOutOfBoundsException e) {
      readBytesAcrossSegments(b, offset, len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  private void readBytesAcrossSegments(byte[] b, int offset, int len) throws IOException {
    if (getFilePointer() + len > length) {
      throw new EOFException("read past EOF: " + this);
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
  public short readShort() throws IOException {
    try {
      short v = current.get(LE_SHORT, currentPosition);
      currentPosition += Short.BYTES;
      return v;
    } catch (IndexOutOfBoundsException e) {
      return super.readShort();
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public int readInt() throws IOException {
    try {
      int v = current.get(LE_INT, currentPosition);
      currentPosition += Integer.BYTES;
      return v;
    } catch (IndexOutOfBoundsException e) {
      return super.readInt();
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public long readLong() throws IOException {
    try {
      long v = current.get(LE_LONG, currentPosition);
      currentPosition += Long.BYTES;
      return v;
    } catch (IndexOutOfBoundsException e) {
      return super.readLong();
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readInts(int[] dst, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(current, LE_INT, currentPosition, dst, offset, len);
      currentPosition += (long) len * Integer.BYTES;
    } catch (IndexOutOfBoundsException e) {
      super.readInts(dst, offset, len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readLongs(long[] dst, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(current, LE_LONG, currentPosition, dst, offset, len);
      currentPosition += (long) len * Long.BYTES;
    } catch (IndexOutOfBoundsException e) {
      super.readLongs(dst, offset, len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readFloats(float[] dst, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(current, LE_FLOAT, currentPosition, dst, offset, len);
      currentPosition += (long) len * Float.BYTES;
    } catch (IndexOutOfBoundsException e) {
      super.readFloats(dst, offset, len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void skipBytes(long numBytes) throws IOException {
    if (numBytes < 0) {
      throw new IllegalArgumentException("numBytes must be >= 0, got " + numBytes);
    }
    seek(getFilePointer() + numBytes);
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
    if (segments.length == 1) {
      return 0;
    }
    int i = Arrays.binarySearch(starts, pos);
    int index = i >= 0 ? i : -i - 2;
    return Math.min(index, segments.length - 1);
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public byte readByte(long pos) throws IOException {
    try {
      if (segments.length == 1) {
        return segments[0].get(BYTE, pos);
      }
      int index = segmentFor(pos);
      return segments[index].get(BYTE, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      throw new EOFException("read past EOF at " + pos + ": " + this);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readBytes(long pos, byte[] b, int offset, int len) throws IOException {
    if (segments.length == 1) {
      try {
        MemorySegment.copy(segments[0], BYTE, pos, b, offset, len);
        return;
      } catch (IndexOutOfBoundsException e) {
        throw new EOFException("read past EOF at " + pos + ": " + this);
      } catch (IllegalStateException e) {
        throw alreadyClosed(e);
      }
    }
    RandomAccessInput.super.readBytes(pos, b, offset, len);
  }

  @Override
  public short readShort(long pos) throws IOException {
    try {
      if (segments.length == 1) {
        return segments[0].get(LE_SHORT, pos);
      }
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
      if (segments.length == 1) {
        return segments[0].get(LE_INT, pos);
      }
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
      if (segments.length == 1) {
        return segments[0].get(LE_LONG, pos);
      }
      int index = segmentFor(pos);
      return segments[index].get(LE_LONG, pos - starts[index]);
    } catch (IndexOutOfBoundsException e) {
      return (readInt(pos) & 0xFFFFFFFFL) | ((long) readInt(pos + 4)) << 32;
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public NvmIndexInput clone() {
    NvmIndexInput clone = new NvmIndexInput(toString(), segments, null);
    clone.segmentIndex = segmentIndex;
    clone.current = current;
    clone.currentPosition = currentPosition;
    return clone;
  }

  @Override
  public NvmIndexInput slice(String sliceDescription, long offset, long length) {
    if (offset < 0 || length < 0 || offset + length > this.length || offset + length < 0) {
      throw new IllegalArgumentException(
          "slice() "
              + sliceDescription
              + " out of bounds: offset="
              + offset
              + ",length="
              + length
              + ",fileLength="
              + this.length
              + ": "
              + this);
    }
    int first = segmentFor(offset);
    int last = length == 0 ? first : segmentFor(offset + length - 1);
    MemorySegment[] parts = new MemorySegment[last - first + 1];
    for (int i = first; i <= last; i++) {
      long from = Math.max(offset, starts[i]) - starts[i];
      long to = Math.min(offset + length, starts[i] + segments[i].byteSize()) - starts[i];
      parts[i - first] = segments[i].asSlice(from, Math.max(0, to - from));
    }
    return new NvmIndexInput(getFullSliceDescription(sliceDescription), parts, null);
  }

  @Override
  public RandomAccessInput randomAccessSlice(long offset, long length) {
    return slice("randomAccessSlice", offset, length);
  }

  @Override
  public void prefetch(long offset, long length) {
    // The pool is memory: nothing to fetch ahead.
  }

  @Override
  public void close() {
    if (closer != null) {
      closer.run();
    }
  }
}
