package org.lucenenvm.codec;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * Read access to one data file of {@link NvmPostingsFormat} by absolute file pointer, with bulk
 * copies of little-endian ints and longs into heap buffers. {@link #segmentOrNull} serves files
 * that are one contiguous {@link MemorySegment} (through {@link MemorySegmentAccessInput}: {@code
 * MMapDirectory}, and any directory whose inputs implement it) with one {@link MemorySegment#copy}
 * per call; {@link #of} serves a memory-segment input made of several segments (an {@code
 * NvmDirectory} file in several extents) with one segment lookup and one copy per call, and every
 * other input one positional read at a time.
 */
sealed interface PostingsData {

  /** Copies {@code count} int32 values starting at {@code fp} into {@code dst[0, count)}. */
  void readInts(long fp, int[] dst, int count) throws IOException;

  /** Copies {@code count} int16 values starting at {@code fp} into {@code dst[0, count)}. */
  void readShorts(long fp, short[] dst, int count) throws IOException;

  /** Copies {@code count} int64 values starting at {@code fp} into {@code dst[0, count)}. */
  void readLongs(long fp, long[] dst, int count) throws IOException;

  /** Copies {@code length} bytes starting at {@code fp} into {@code dst[0, length)}. */
  void readBytes(long fp, byte[] dst, int length) throws IOException;

  /** The int64 value at {@code fp}. */
  long readLong(long fp) throws IOException;

  /** The byte at {@code fp}. */
  byte readByte(long fp) throws IOException;

  /**
   * The whole of {@code in} as one memory segment, or null if the input is not memory-segment
   * backed or spans several segments.
   */
  static PostingsData segmentOrNull(IndexInput in) throws IOException {
    if (in instanceof MemorySegmentAccessInput access) {
      MemorySegment segment = access.segmentSliceOrNull(0, in.length());
      if (segment != null) {
        return new Segment(segment);
      }
    }
    return null;
  }

  /**
   * Read access to {@code in} (which the caller owns, e.g. a clone of its own) for a file that
   * {@link #segmentOrNull} did not map as a whole: bulk copies from the memory segment that holds
   * the requested range, if {@code in} is memory-segment backed, else positional reads.
   */
  static PostingsData of(IndexInput in) throws IOException {
    RandomAccess randomAccess = new RandomAccess(in.randomAccessSlice(0, in.length()));
    if (in instanceof MemorySegmentAccessInput access) {
      return new Extents(access, randomAccess);
    }
    return randomAccess;
  }

  /** A file mapped as one contiguous segment: every bulk read is one {@code MemorySegment.copy}. */
  record Segment(MemorySegment segment) implements PostingsData {
    private static final ValueLayout.OfShort SHORT =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT =
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public void readInts(long fp, int[] dst, int count) {
      MemorySegment.copy(segment, INT, fp, dst, 0, count);
    }

    @Override
    public void readShorts(long fp, short[] dst, int count) {
      MemorySegment.copy(segment, SHORT, fp, dst, 0, count);
    }

    @Override
    public void readLongs(long fp, long[] dst, int count) {
      MemorySegment.copy(segment, LONG, fp, dst, 0, count);
    }

    @Override
    public void readBytes(long fp, byte[] dst, int length) {
      MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, fp, dst, 0, length);
    }

    @Override
    public long readLong(long fp) {
      return segment.get(LONG, fp);
    }

    @Override
    public byte readByte(long fp) {
      return segment.get(ValueLayout.JAVA_BYTE, fp);
    }
  }

  /**
   * A memory-segment input of several segments: each bulk read asks the input for the segment
   * holding its range ({@link MemorySegmentAccessInput#segmentSliceOrNull}, one lookup per block
   * rather than one per value) and copies from it; the rare range that crosses from one segment
   * into the next is read value by value.
   */
  record Extents(MemorySegmentAccessInput access, RandomAccess values) implements PostingsData {
    @Override
    public void readInts(long fp, int[] dst, int count) throws IOException {
      MemorySegment slice = access.segmentSliceOrNull(fp, (long) count * Integer.BYTES);
      if (slice == null) {
        values.readInts(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.INT, 0, dst, 0, count);
      }
    }

    @Override
    public void readShorts(long fp, short[] dst, int count) throws IOException {
      MemorySegment slice = access.segmentSliceOrNull(fp, (long) count * Short.BYTES);
      if (slice == null) {
        values.readShorts(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.SHORT, 0, dst, 0, count);
      }
    }

    @Override
    public void readLongs(long fp, long[] dst, int count) throws IOException {
      MemorySegment slice = access.segmentSliceOrNull(fp, (long) count * Long.BYTES);
      if (slice == null) {
        values.readLongs(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.LONG, 0, dst, 0, count);
      }
    }

    @Override
    public void readBytes(long fp, byte[] dst, int length) throws IOException {
      MemorySegment slice = access.segmentSliceOrNull(fp, length);
      if (slice == null) {
        values.readBytes(fp, dst, length);
      } else {
        MemorySegment.copy(slice, ValueLayout.JAVA_BYTE, 0, dst, 0, length);
      }
    }

    @Override
    public long readLong(long fp) throws IOException {
      return values.readLong(fp);
    }

    @Override
    public byte readByte(long fp) throws IOException {
      return values.readByte(fp);
    }
  }

  /** Any other input: one positional read per value. */
  record RandomAccess(RandomAccessInput in) implements PostingsData {
    @Override
    public void readInts(long fp, int[] dst, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        dst[i] = in.readInt(fp + ((long) i << 2));
      }
    }

    @Override
    public void readShorts(long fp, short[] dst, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        dst[i] = in.readShort(fp + ((long) i << 1));
      }
    }

    @Override
    public void readLongs(long fp, long[] dst, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        dst[i] = in.readLong(fp + ((long) i << 3));
      }
    }

    @Override
    public void readBytes(long fp, byte[] dst, int length) throws IOException {
      in.readBytes(fp, dst, 0, length);
    }

    @Override
    public long readLong(long fp) throws IOException {
      return in.readLong(fp);
    }

    @Override
    public byte readByte(long fp) throws IOException {
      return in.readByte(fp);
    }
  }
}
