package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The persistent form of an {@link NvmDirectory}'s file table: one block in the pool, replaced as
 * a whole (copy on write) and published through root slot {@link NvmHeap#DIRECTORY_ROOT}. Readers
 * of the pool see either the old table or the new one, never a mix.
 *
 * <p>Block layout (little endian):
 *
 * <pre>
 * Table    --&gt; Magic, Version, Length, Capacity, Generation, SpareOffset, SpareCapacity, Count, Entry^Count, Checksum
 * Magic    --&gt; int32 0x4C4E5654 ("LNVT")
 * Version  --&gt; int32, currently 2
 * Length   --&gt; int64, bytes of the table including the checksum
 * Capacity --&gt; int64, bytes allocated for the block (&gt;= Length)
 * Generation --&gt; int64, incremented by every publication
 * SpareOffset, SpareCapacity --&gt; int64 each: the block the next publication will be written
 *          into (0, 0 if none); reserving it across restarts lets a full pool still publish deletes
 * Count    --&gt; int32, number of entries
 * Entry    --&gt; NameLength (int16), Name (UTF-8), ExtentCount (int32), (Offset int64, Length int64)^ExtentCount
 * Checksum --&gt; int64, CRC32 of every preceding byte of the table
 * </pre>
 *
 * <p>An extent shared by clones ({@link NvmDirectory#copyFrom}) is simply named by several
 * entries, with the same offset and length in each; extents of different entries never overlap
 * otherwise. On open, {@link SharedExtents#rebuild} counts the entries naming each extent and
 * refuses a table with partially overlapping extents as damaged.
 */
final class FileTable {
  static final int MAGIC = 0x4C4E5654;
  static final int VERSION = 2;
  private static final int HEADER_BYTES = 52;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private FileTable() {}

  /** Bytes the table for {@code files} takes. */
  static long encodedLength(Map<String, NvmFile> files) {
    long bytes = HEADER_BYTES + Long.BYTES;
    for (Map.Entry<String, NvmFile> e : files.entrySet()) {
      bytes += Short.BYTES + e.getKey().getBytes(StandardCharsets.UTF_8).length + Integer.BYTES;
      bytes += 2L * Long.BYTES * e.getValue().extentCount();
    }
    return bytes;
  }

  /**
   * Writes the table for {@code files} into {@code block} (of {@code capacity} bytes), naming
   * {@code [spareOffset, spareOffset + spareCapacity)} as the block of the next publication.
   */
  static void write(
      MemorySegment block,
      long capacity,
      long generation,
      long spareOffset,
      long spareCapacity,
      Map<String, NvmFile> files) {
    long length = encodedLength(files);
    ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(length)).order(ByteOrder.LITTLE_ENDIAN);
    buf.putInt(MAGIC).putInt(VERSION).putLong(length).putLong(capacity).putLong(generation);
    buf.putLong(spareOffset).putLong(spareCapacity);
    buf.putInt(files.size());
    for (Map.Entry<String, NvmFile> e : files.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      NvmFile file = e.getValue();
      buf.putShort((short) name.length).put(name).putInt(file.extentCount());
      for (int i = 0; i < file.extentCount(); i++) {
        buf.putLong(file.extentOffset(i)).putLong(file.extentLength(i));
      }
    }
    CRC32 crc = new CRC32();
    crc.update(buf.array(), 0, buf.position());
    buf.putLong(crc.getValue());
    MemorySegment.copy(MemorySegment.ofArray(buf.array()), 0, block, 0, length);
  }

  /** A decoded table. */
  record Decoded(
      long capacity,
      long generation,
      long spareOffset,
      long spareCapacity,
      Map<String, NvmFile> files) {}

  /**
   * Reads the table at {@code offset}.
   *
   * @throws IOException naming the problem if the block is not a valid table
   */
  static Decoded read(NvmHeap heap, long offset) throws IOException {
    if (offset < 0 || offset + HEADER_BYTES + Long.BYTES > heap.size()) {
      throw new IOException("file table pointer " + offset + " lies outside the pool");
    }
    MemorySegment start = heap.segment(offset, HEADER_BYTES + Long.BYTES);
    long length = start.get(LONG, 8);
    if (start.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0) != MAGIC
        || length < HEADER_BYTES + Long.BYTES
        || offset + length > heap.size()
        || length > Integer.MAX_VALUE) {
      throw new IOException("no valid file table at offset " + offset + " (bad magic or length)");
    }
    ByteBuffer buf = heap.segment(offset, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    CRC32 crc = new CRC32();
    crc.update(buf.slice(0, (int) length - Long.BYTES));
    if (crc.getValue() != buf.getLong((int) length - Long.BYTES)) {
      throw new IOException("file table at offset " + offset + " fails its checksum");
    }
    int version = buf.getInt(4);
    if (version != VERSION) {
      throw new IOException("file table version " + version + ", this build reads " + VERSION);
    }
    long capacity = buf.getLong(16);
    long generation = buf.getLong(24);
    long spareOffset = buf.getLong(32);
    long spareCapacity = buf.getLong(40);
    int count = buf.getInt(48);
    buf.position(HEADER_BYTES);
    Map<String, NvmFile> files = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      byte[] name = new byte[Short.toUnsignedInt(buf.getShort())];
      buf.get(name);
      int extents = buf.getInt();
      long[] offsets = new long[extents];
      long[] lengths = new long[extents];
      for (int j = 0; j < extents; j++) {
        offsets[j] = buf.getLong();
        lengths[j] = buf.getLong();
      }
      files.put(new String(name, StandardCharsets.UTF_8), new NvmFile(offsets, lengths, true));
    }
    return new Decoded(capacity, generation, spareOffset, spareCapacity, files);
  }
}
