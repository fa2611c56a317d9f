package org.lucenenvm.store;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The two input variants and their {@link MemorySegmentAccessInput} side: which variant a file
 * gets, the segments {@code segmentSliceOrNull} hands out (contents, bounds, lifetime), and reads of
 * a file spread over several extents compared byte for byte with the file's contents.
 */
public class TestNvmIndexInput extends LuceneTestCase {

  private static byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random().nextBytes(bytes);
    return bytes;
  }

  private static NvmDirectory newDirectory(String name) throws IOException {
    return NvmDirectory.open(PoolPaths.poolIn(createTempDir(name)), 16L * 1024 * 1024);
  }

  private static void write(NvmDirectory dir, String name, byte[] bytes) throws IOException {
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      out.writeBytes(bytes, bytes.length);
    }
  }

  private static void assertSegmentHolds(MemorySegment segment, byte[] expected, int from, int len) {
    assertNotNull("segment expected for [" + from + ", " + (from + len) + ")", segment);
    assertEquals(len, segment.byteSize());
    byte[] actual = segment.toArray(ValueLayout.JAVA_BYTE);
    for (int i = 0; i < len; i++) {
      assertEquals("byte " + (from + i), expected[from + i], actual[i]);
    }
  }

  public void testDirectoryInputsClonesAndSlicesAreMemorySegmentAccessInputs() throws IOException {
    byte[] bytes = randomBytes(100_000 + random().nextInt(100_000));
    try (NvmDirectory dir = newDirectory("access")) {
      write(dir, "f", bytes);
      assertEquals(1, dir.extentCount("f"));
      try (IndexInput in = dir.openInput("f", IOContext.DEFAULT)) {
        assertTrue(in instanceof SingleSegmentInput);
        MemorySegmentAccessInput access = (MemorySegmentAccessInput) in;
        assertSegmentHolds(access.segmentSliceOrNull(0, bytes.length), bytes, 0, bytes.length);
        int from = random().nextInt(bytes.length);
        int len = random().nextInt(bytes.length - from + 1);
        assertSegmentHolds(access.segmentSliceOrNull(from, len), bytes, from, len);

        IndexInput slice = in.slice("slice", from, len);
        assertTrue(slice instanceof MemorySegmentAccessInput);
        MemorySegmentAccessInput sliceAccess = (MemorySegmentAccessInput) slice;
        int inner = len == 0 ? 0 : random().nextInt(len);
        assertSegmentHolds(sliceAccess.segmentSliceOrNull(inner, len - inner), bytes, from + inner, len - inner);

        MemorySegmentAccessInput clone = access.clone();
        assertSegmentHolds(clone.segmentSliceOrNull(from, len), bytes, from, len);
        RandomAccessInput randomAccess = in.randomAccessSlice(from, len);
        assertTrue(randomAccess instanceof MemorySegmentAccessInput);
        assertSegmentHolds(((MemorySegmentAccessInput) randomAccess).segmentSliceOrNull(0, len), bytes, from, len);
      }
    }
  }

  public void testSegmentSliceBoundsAreChecked() throws IOException {
    byte[] bytes = randomBytes(5000);
    try (NvmDirectory dir = newDirectory("bounds")) {
      write(dir, "f", bytes);
      try (IndexInput in = dir.openInput("f", IOContext.DEFAULT)) {
        MemorySegmentAccessInput access = (MemorySegmentAccessInput) in;
        assertEquals(0, access.segmentSliceOrNull(bytes.length, 0).byteSize());
        expectThrows(EOFException.class, () -> access.segmentSliceOrNull(bytes.length - 10, 11));
        expectThrows(EOFException.class, () -> access.segmentSliceOrNull(0, Long.MAX_VALUE));
        expectThrows(IllegalArgumentException.class, () -> access.segmentSliceOrNull(-1, 10));
        expectThrows(IllegalArgumentException.class, () -> access.segmentSliceOrNull(0, -1));
        MemorySegmentAccessInput slice = (MemorySegmentAccessInput) in.slice("slice", 1000, 2000);
        expectThrows(EOFException.class, () -> slice.segmentSliceOrNull(1000, 1001));
      }
    }
  }

  public void testClosingTheInputEndsEverySegmentItHandedOut() throws IOException {
    byte[] bytes = randomBytes(50_000);
    try (NvmDirectory dir = newDirectory("lifetime")) {
      write(dir, "f", bytes);
      IndexInput in = dir.openInput("f", IOContext.DEFAULT);
      MemorySegmentAccessInput access = (MemorySegmentAccessInput) in;
      MemorySegment whole = access.segmentSliceOrNull(0, bytes.length);
      IndexInput clone = in.clone();
      MemorySegmentAccessInput slice = (MemorySegmentAccessInput) in.slice("slice", 10, 100);
      MemorySegment fromSlice = slice.segmentSliceOrNull(0, 100);
      in.close();
      // The file may now be deleted and its extents reused; nothing handed out can read them.
      dir.deleteFile("f");
      write(dir, "g", randomBytes(bytes.length));
      expectThrows(IllegalStateException.class, () -> whole.get(ValueLayout.JAVA_BYTE, 0));
      expectThrows(IllegalStateException.class, () -> fromSlice.get(ValueLayout.JAVA_BYTE, 0));
      expectThrows(AlreadyClosedException.class, clone::readByte);
      expectThrows(AlreadyClosedException.class, () -> slice.readInt(0));
      expectThrows(AlreadyClosedException.class, () -> slice.segmentSliceOrNull(0, 1));
    }
  }

  public void testEmptyFile() throws IOException {
    try (NvmDirectory dir = newDirectory("empty")) {
      write(dir, "f", new byte[0]);
      try (IndexInput in = dir.openInput("f", IOContext.DEFAULT)) {
        assertTrue(in instanceof SingleSegmentInput);
        assertEquals(0, ((MemorySegmentAccessInput) in).segmentSliceOrNull(0, 0).byteSize());
        expectThrows(EOFException.class, in::readByte);
      }
    }
  }

  /** A file in several extents, built directly: the pool rarely leaves a file that way. */
  public void testMultiSegmentInputReadsLikeTheBytesItHolds() throws IOException {
    byte[] bytes = randomBytes(20_000 + random().nextInt(20_000));
    try (Arena arena = Arena.ofConfined()) {
      int parts = 2 + random().nextInt(6);
      MemorySegment[] segments = new MemorySegment[parts];
      int[] cuts = new int[parts + 1];
      cuts[parts] = bytes.length;
      for (int i = 1; i < parts; i++) {
        cuts[i] = cuts[i - 1] + 1 + random().nextInt((bytes.length - cuts[i - 1]) / (parts - i + 1));
      }
      for (int i = 0; i < parts; i++) {
        segments[i] = arena.allocate(cuts[i + 1] - cuts[i]);
        MemorySegment.copy(bytes, cuts[i], segments[i], ValueLayout.JAVA_BYTE, 0, cuts[i + 1] - cuts[i]);
      }
      NvmIndexInput in = NvmIndexInput.open("multi", segments, null);
      assertTrue(in instanceof MultiSegmentInput);
      assertEquals(bytes.length, in.length());
      assertReadsMatch(in, bytes, 0);
      for (int i = 0; i < 20; i++) {
        int from = random().nextInt(bytes.length);
        int len = random().nextInt(bytes.length - from + 1);
        NvmIndexInput slice = in.slice("slice", from, len);
        assertReadsMatch(slice, bytes, from);
        assertReadsMatch(slice.clone(), bytes, from);
      }
      // A segment is handed out within an extent and refused (null) across a boundary.
      int cut = cuts[1];
      assertSegmentHolds(in.segmentSliceOrNull(0, cut), bytes, 0, cut);
      assertNull(in.segmentSliceOrNull(cut - 1, 2));
      assertSegmentHolds(in.segmentSliceOrNull(cut, cuts[2] - cut), bytes, cut, cuts[2] - cut);
      NvmIndexInput withinOneExtent = in.slice("inner", cut, cuts[2] - cut);
      assertTrue(withinOneExtent instanceof SingleSegmentInput);
      expectThrows(EOFException.class, () -> in.readLong(bytes.length - 7));
    }
  }

  /** Sequential, positional and seeking reads of {@code in} against {@code bytes[base...]}. */
  private static void assertReadsMatch(NvmIndexInput in, byte[] bytes, int base) throws IOException {
    int length = Math.toIntExact(in.length());
    ByteBuffer expected = ByteBuffer.wrap(bytes, base, length).slice().order(ByteOrder.LITTLE_ENDIAN);
    in.seek(0);
    for (int pos = 0; pos < length; ) {
      int left = length - pos;
      switch (random().nextInt(5)) {
        case 0 -> assertEquals(expected.get(pos++), in.readByte());
        case 1 -> {
          if (left >= Integer.BYTES) {
            assertEquals(expected.getInt(pos), in.readInt());
            pos += Integer.BYTES;
          }
        }
        case 2 -> {
          if (left >= Long.BYTES) {
            assertEquals(expected.getLong(pos), in.readLong());
            pos += Long.BYTES;
          }
        }
        case 3 -> {
          int len = random().nextInt(Math.min(left, 3000) + 1);
          byte[] dst = new byte[len];
          in.readBytes(dst, 0, len);
          for (int i = 0; i < len; i++) {
            assertEquals(expected.get(pos + i), dst[i]);
          }
          pos += len;
        }
        default -> {
          pos = random().nextInt(length + 1);
          in.seek(pos);
        }
      }
      assertEquals(pos, in.getFilePointer());
    }
    expectThrows(EOFException.class, in::readByte);
    for (int i = 0; i < 200 && length >= Long.BYTES; i++) {
      int pos = random().nextInt(length - Long.BYTES + 1);
      assertEquals(expected.get(pos), in.readByte(pos));
      assertEquals(expected.getShort(pos), in.readShort(pos));
      assertEquals(expected.getInt(pos), in.readInt(pos));
      assertEquals(expected.getLong(pos), in.readLong(pos));
      byte[] dst = new byte[Math.min(length - pos, 64)];
      in.readBytes(pos, dst, 0, dst.length);
      for (int j = 0; j < dst.length; j++) {
        assertEquals(expected.get(pos + j), dst[j]);
      }
    }
  }
}
