package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The header of a pool (layout in {@link NvmHeap}'s javadoc): how it is validated when a pool
 * opens and how its checksummed fields change crash-consistently.
 *
 * <p>The pool size sits in the checksummed bytes, so growing a pool rewrites two 8-byte words
 * (size and checksum) that a power failure may tear apart. Growth therefore first persists a
 * growth record (the old and the new size, {@code [48, 64)}), then rewrites size and checksum in
 * one persist. A header whose checksum fails is accepted only if it matches with one of the two
 * recorded sizes in place of its own: then it is a torn size switch, the pool has that size, and
 * {@link #repair} makes the header consistent again. Any other mismatch is damage.
 */
final class PoolHeader {
  static final int SIZE = 4096;
  static final int FORMAT_VERSION = 1;
  static final int ROOTS = 64;
  static final long MIN_POOL_SIZE = 2L * SIZE;

  private static final byte[] MAGIC = "LNVMPOOL".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 8;
  private static final int HEADER_SIZE = 12;
  private static final int POOL_SIZE = 16;
  private static final int CREATED = 24;
  private static final int CHECKSUM = 32;
  private static final int CLEAN = 40;
  private static final int GROWN_FROM = 48;
  private static final int GROWN_TO = 56;
  private static final int CHECKSUMMED_BYTES = 32;
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private PoolHeader() {}

  /**
   * What a valid header records.
   *
   * @param size the pool size in bytes
   * @param clean whether the last user closed the pool
   * @param torn whether a size switch was torn by a crash (the header needs {@link #repair})
   */
  record Recorded(long size, boolean clean, boolean torn) {}

  /**
   * A header whose magic is all zeros never held data: {@link #format} writes the magic last, so
   * this is a new file, an empty device or a format that was interrupted.
   */
  static boolean isBlank(ByteBuffer header) {
    return header.getLong(0) == 0;
  }

  /** Validates {@code header} (the first {@link #SIZE} bytes of a file of {@code fileSize} bytes). */
  static Recorded validate(Path file, ByteBuffer header, long fileSize) throws InvalidPoolException {
    byte[] magic = new byte[MAGIC.length];
    header.get(0, magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new InvalidPoolException(
          file,
          "is not a lucene-nvm pool (wrong magic; open it with OpenMode.FORMAT to overwrite it)");
    }
    int version = header.getInt(VERSION);
    if (version != FORMAT_VERSION) {
      throw new InvalidPoolException(
          file, "has format version " + version + ", this build reads version " + FORMAT_VERSION);
    }
    long size = header.getLong(POOL_SIZE);
    boolean torn = false;
    if (header.getLong(CHECKSUM) != checksum(header, size)) {
      size = tornSwitchSize(header);
      if (size == 0) {
        throw new InvalidPoolException(file, "header checksum mismatch (the header is damaged)");
      }
      torn = true;
    }
    if (header.getInt(HEADER_SIZE) != SIZE || size < MIN_POOL_SIZE || size % SIZE != 0) {
      throw new InvalidPoolException(file, "header has impossible sizes (the header is damaged)");
    }
    if (fileSize < size) {
      throw new InvalidPoolException(
          file, "is truncated: the header says " + size + " bytes, the file has " + fileSize);
    }
    return new Recorded(size, header.getLong(CLEAN) == 1, torn);
  }

  /** The recorded size the checksum matches with, or 0 if neither does. */
  private static long tornSwitchSize(ByteBuffer header) {
    long stored = header.getLong(CHECKSUM);
    for (long candidate : new long[] {header.getLong(GROWN_FROM), header.getLong(GROWN_TO)}) {
      if (candidate != 0 && checksum(header, candidate) == stored) {
        return candidate;
      }
    }
    return 0;
  }

  /** CRC32 of the checksummed bytes with {@code size} as the pool size. */
  private static long checksum(ByteBuffer header, long size) {
    ByteBuffer bytes = ByteBuffer.allocate(CHECKSUMMED_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    bytes.put(0, header, 0, CHECKSUMMED_BYTES).putLong(POOL_SIZE, size);
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  private static ByteBuffer view(MemorySegment segment) {
    return segment.asSlice(0, SIZE).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Writes a new header for a pool of {@code size} bytes; the magic goes last. */
  static void format(MappedPool pool, long size) throws IOException {
    MemorySegment segment = pool.segment();
    segment.asSlice(0, SIZE).fill((byte) 0);
    pool.persist(0, SIZE);
    ByteBuffer header = view(segment);
    header.putInt(VERSION, FORMAT_VERSION);
    header.putInt(HEADER_SIZE, SIZE);
    header.putLong(CREATED, System.currentTimeMillis());
    header.put(0, MAGIC);
    long checksum = checksum(header, size);
    header.putLong(0, 0L);
    header.putLong(POOL_SIZE, size);
    header.putLong(CHECKSUM, checksum);
    pool.persist(0, SIZE);
    header.put(0, MAGIC);
    pool.persist(0, MAGIC.length);
  }

  /**
   * Switches the recorded size of a valid, untorn header from {@code from} to {@code to}: the
   * growth record first (persisted), then size and checksum in one persist. A crash at any point
   * leaves a header that {@link #validate} reads as {@code from} or as {@code to}.
   */
  static void switchSize(MappedPool pool, long from, long to) throws IOException {
    MemorySegment segment = pool.segment();
    segment.set(LONG, GROWN_FROM, from);
    segment.set(LONG, GROWN_TO, to);
    pool.persist(GROWN_FROM, 2L * Long.BYTES);
    writeSize(pool, to);
  }

  /**
   * Completes a torn size switch as {@link #validate} resolved it ({@code size}): rewrites size and
   * checksum, leaving the growth record that makes either half readable until this is durable.
   */
  static void repair(MappedPool pool, long size) throws IOException {
    writeSize(pool, size);
  }

  private static void writeSize(MappedPool pool, long size) throws IOException {
    ByteBuffer header = view(pool.segment());
    header.putLong(POOL_SIZE, size);
    header.putLong(CHECKSUM, checksum(header, size));
    pool.persist(POOL_SIZE, CLEAN - POOL_SIZE);
  }

  /** Records whether the pool is closed cleanly. */
  static void setClean(MappedPool pool, boolean clean) throws IOException {
    pool.segment().set(LONG, CLEAN, clean ? 1L : 0L);
    pool.persist(CLEAN, Long.BYTES);
  }
}
