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
 * copies of little-endian values into heap buffers. {@link Segment} serves files that are one
 * contiguous {@link MemorySegment} (through {@link MemorySegmentAccessInput}: {@code
 * MMapDirectory}, and any directory whose inputs implement it) with one {@link MemorySegment#copy}
 * per call; {@link Extents} serves files of several segments ({@link FileSegments}: an {@code
 * NvmDirectory} file in several extents) with one segment lookup and one copy per call; {@link
 * RandomAccess} serves every other input one positional read at a time.
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

  /** The int16 value at {@code fp}. */
  short readShort(long fp) throws IOException;

  /** The int32 value at {@code fp}. */
  int readInt(long fp) throws IOException;

  /** The int64 value at {@code fp}. */
  long readLong(long fp) throws IOException;

  /** The byte at {@code fp}. */
  byte readByte(long fp) throws IOException;

  /**
   * Read access to the file {@code in}, made of {@code segments} (null if not memory-segment
   * backed): one bulk copy from its segment if there is one, from the segment that holds the range
   * if there are several, else positional reads through a random-access slice of {@code in}.
   */
  static PostingsData of(IndexInput in, FileSegments segments) throws IOException {
    if (segments != null && segments.isSingle()) {
      return new Segment(segments.parts()[0]);
    }
    RandomAccess randomAccess = new RandomAccess(in.randomAccessSlice(0, in.length()));
    return segments == null ? randomAccess : new Extents(segments, randomAccess);
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
    public short readShort(long fp) {
      return segment.get(SHORT, fp);
    }

    @Override
    public int readInt(long fp) {
      return segment.get(INT, fp);
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
   * A file of several memory segments: each read finds the segment that holds its start (a binary
   * search over the segments' starts) and copies from it; the rare range that crosses into the
   * next segment is read value by value.
   */
  record Extents(FileSegments segments, RandomAccess values) implements PostingsData {
    /** The segment holding {@code [fp, fp + bytes)}, or null if the range crosses segments. */
    private MemorySegment segmentOf(long fp, long bytes) {
      int index = segments.indexOf(fp);
      MemorySegment part = segments.parts()[index];
      long offset = fp - segments.starts()[index];
      return offset + bytes <= part.byteSize() ? part.asSlice(offset, bytes) : null;
    }

    @Override
    public void readInts(long fp, int[] dst, int count) throws IOException {
      MemorySegment slice = segmentOf(fp, (long) count * Integer.BYTES);
      if (slice == null) {
        values.readInts(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.INT, 0, dst, 0, count);
      }
    }

    @Override
    public void readShorts(long fp, short[] dst, int count) throws IOException {
      MemorySegment slice = segmentOf(fp, (long) count * Short.BYTES);
      if (slice == null) {
        values.readShorts(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.SHORT, 0, dst, 0, count);
      }
    }

    @Override
    public void readLongs(long fp, long[] dst, int count) throws IOException {
      MemorySegment slice = segmentOf(fp, (long) count * Long.BYTES);
      if (slice == null) {
        values.readLongs(fp, dst, count);
      } else {
        MemorySegment.copy(slice, Segment.LONG, 0, dst, 0, count);
      }
    }

    @Override
    public void readBytes(long fp, byte[] dst, int length) throws IOException {
      MemorySegment slice = segmentOf(fp, length);
      if (slice == null) {
        values.readBytes(fp, dst, length);
      } else {
        MemorySegment.copy(slice, ValueLayout.JAVA_BYTE, 0, dst, 0, length);
      }
    }

    @Override
    public short readShort(long fp) throws IOException {
      MemorySegment slice = segmentOf(fp, Short.BYTES);
      return slice == null ? values.readShort(fp) : slice.get(Segment.SHORT, 0);
    }

    @Override
    public int readInt(long fp) throws IOException {
      MemorySegment slice = segmentOf(fp, Integer.BYTES);
      return slice == null ? values.readInt(fp) : slice.get(Segment.INT, 0);
    }

    @Override
    public long readLong(long fp) throws IOException {
      MemorySegment slice = segmentOf(fp, Long.BYTES);
      return slice == null ? values.readLong(fp) : slice.get(Segment.LONG, 0);
    }

    @Override
    public byte readByte(long fp) {
      int index = segments.indexOf(fp);
      return segments.parts()[index].get(ValueLayout.JAVA_BYTE, fp - segments.starts()[index]);
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
    public short readShort(long fp) throws IOException {
      return in.readShort(fp);
    }

    @Override
    public int readInt(long fp) throws IOException {
      return in.readInt(fp);
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
