package org.lucenenvm.store;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * Reads an {@link NvmDirectory} file straight from the mapped pool: every read is a load from the
 * file's extents, nothing is copied into the Java heap except into the caller's arrays. As Lucene
 * splits its {@code MemorySegmentIndexInput}, a file held by one extent (the usual case, see
 * {@link NvmIndexOutput}) reads through {@link SingleSegmentInput}, whose reads are one bounds-
 * checked load with no segment lookup; a file spread over several extents reads through {@link
 * MultiSegmentInput}, which switches segments at their boundaries.
 *
 * <p>Both are {@link MemorySegmentAccessInput}s, so Lucene's own code that reads memory segments
 * directly (the vectorized postings decoding of {@code Lucene104PostingsReader}, vector scorers)
 * applies to files of this directory as it does to {@code MMapDirectory}'s.
 *
 * <p><b>Lifetime.</b> The segments an input, its clones and its slices read through, and the
 * segments {@link #segmentSliceOrNull} hands out, all belong to one shared arena owned by the input
 * that {@link NvmDirectory#openInput} returned. Closing that input (or the directory) closes the
 * arena first and only then releases the file's extents for reuse. Reads through the inputs
 * afterwards fail with {@link AlreadyClosedException}; accesses to a segment obtained from {@link
 * #segmentSliceOrNull} fail with the {@link IllegalStateException} of the foreign memory API. So
 * neither can ever read memory that has been reused for another file. As with Lucene's inputs, a
 * caller must not use anything derived from an input after closing it.
 */
abstract sealed class NvmIndexInput extends IndexInput implements MemorySegmentAccessInput
    permits SingleSegmentInput, MultiSegmentInput {
  static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
  static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  static final ValueLayout.OfFloat LE_FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  final long length;
  /**
   * Releases what the directory holds for this input; set on the input the directory handed out
   * only, and taken by the first {@link #close()} so that it runs once however often close is
   * called.
   */
  private final AtomicReference<Runnable> closer;

  /** The segment sequential reads come from, and the position in it. */
  MemorySegment current;
  long currentPosition;

  /**
   * An input over {@code segments} (the file's extents in order, at least one): single-segment
   * when there is one.
   *
   * @param closer run once, at the first close of the input returned by the directory; null for
   *     clones and slices, whose close does nothing
   */
  static NvmIndexInput open(String description, MemorySegment[] segments, Runnable closer) {
    return segments.length == 1
        ? new SingleSegmentInput(description, segments[0], closer)
        : new MultiSegmentInput(description, segments, closer);
  }

  NvmIndexInput(String description, MemorySegment first, long length, Runnable closer) {
    super(description);
    this.current = first;
    this.length = length;
    this.closer = closer == null ? null : new AtomicReference<>(closer);
  }

  final AlreadyClosedException alreadyClosed(RuntimeException cause) {
    return new AlreadyClosedException("Already closed: " + this, cause);
  }

  final EOFException pastEof(String action, long pos) {
    return new EOFException(action + " past EOF (pos=" + pos + ", length=" + length + "): " + this);
  }

  /**
   * Moves sequential reads to the next segment that has bytes left.
   *
   * @throws EOFException if there is none
   */
  abstract void nextSegment() throws EOFException;

  /** Reads {@code len} bytes that do not all lie in the current segment. */
  abstract void readBytesAcrossSegments(byte[] b, int offset, int len) throws IOException;

  @Override
  public final byte readByte() throws IOException {
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

  @Override
  public final void readBytes(byte[] b, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(current, BYTE, currentPosition, b, offset, len);
      currentPosition += len;
    } catch (IndexOutOfBoundsException e) {
      readBytesAcrossSegments(b, offset, len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public final short readShort() throws IOException {
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
  public final int readInt() throws IOException {
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
  public final long readLong() throws IOException {
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
  public final int readVInt() throws IOException {
    // Kept as its own call site, as Lucene's inputs do, so the JIT does not mix it up (LUCENE-10366).
    return super.readVInt();
  }

  @Override
  public final long readVLong() throws IOException {
    return super.readVLong();
  }

  @Override
  public final void readInts(int[] dst, int offset, int len) throws IOException {
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
  public final void readLongs(long[] dst, int offset, int len) throws IOException {
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
  public final void readFloats(float[] dst, int offset, int len) throws IOException {
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
  public final void skipBytes(long numBytes) throws IOException {
    if (numBytes < 0) {
      throw new IllegalArgumentException("numBytes must be >= 0, got " + numBytes);
    }
    seek(getFilePointer() + numBytes);
  }

  @Override
  public final long length() {
    return length;
  }

  /** A segment over {@code [pos, pos + len)}, or null if those bytes span extents. */
  abstract MemorySegment segmentSlice(long pos, long len);

  /**
   * {@inheritDoc}
   *
   * <p>The segment belongs to this file's arena: see the class documentation for how long it may
   * be used.
   */
  @Override
  public final MemorySegment segmentSliceOrNull(long pos, long len) throws IOException {
    if ((pos | len) < 0) {
      throw new IllegalArgumentException(
          "segmentSliceOrNull: negative position or length (pos=" + pos + ", len=" + len + "): " + this);
    }
    if (len > length - pos) {
      throw pastEof("segmentSliceOrNull", pos + len);
    }
    if (!current.scope().isAlive()) {
      throw alreadyClosed(null);
    }
    return segmentSlice(pos, len);
  }

  @Override
  public abstract NvmIndexInput clone();

  @Override
  public final NvmIndexInput slice(String sliceDescription, long offset, long length) {
    if ((offset | length) < 0 || length > this.length - offset) {
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
    return buildSlice(getFullSliceDescription(sliceDescription), offset, length);
  }

  /** The slice {@code [offset, offset + length)}, already checked to lie within this input. */
  abstract NvmIndexInput buildSlice(String description, long offset, long length);

  @Override
  public final RandomAccessInput randomAccessSlice(long offset, long length) {
    return slice("randomAccessSlice", offset, length);
  }

  @Override
  public final void prefetch(long offset, long length) {
    // The pool is memory: nothing to fetch ahead.
  }

  @Override
  public final void close() {
    Runnable release = closer == null ? null : closer.getAndSet(null);
    if (release != null) {
      release.run();
    }
  }
}
