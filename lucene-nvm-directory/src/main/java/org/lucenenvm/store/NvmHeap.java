package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * A persistent heap: one pre-allocated pool file (a file on a DAX file system, a {@code /dev/dax}
 * device, or an ordinary file as emulation) mapped into memory, with a small header and a handful
 * of root slots. Persistent pointers are offsets from the start of the pool, since the mapping
 * address changes from run to run; {@link #persist(long, long)} is the only durability primitive.
 *
 * <p>Header layout (little endian, the first {@value #HEADER_SIZE} bytes of the pool):
 *
 * <ul>
 *   <li>0: magic, the 8 ASCII bytes {@code LNVMPOOL}
 *   <li>8: format version (int32, currently {@value #FORMAT_VERSION})
 *   <li>12: header size (int32)
 *   <li>16: pool size in bytes (int64)
 *   <li>24: creation time, epoch milliseconds (int64)
 *   <li>32: CRC32 of bytes [0, 32) (int64)
 *   <li>40: clean-shutdown flag (int64; 1 after {@link #close()}, 0 while open)
 *   <li>64: {@value #ROOT_SLOTS} root slots (int64 each), persistent pointers owned by the heap's
 *       users (slot {@value #DIRECTORY_ROOT} is {@link NvmDirectory}'s file table)
 * </ul>
 *
 * <p>A pool is locked for the process that opens it. Opening never reformats a pool that holds
 * data unless {@link OpenMode#FORMAT} asks for it.
 */
public final class NvmHeap implements AutoCloseable {
  /** Bytes reserved at the start of the pool for the header. */
  public static final int HEADER_SIZE = 4096;

  /** The pool format this build reads and writes. */
  public static final int FORMAT_VERSION = 1;

  /** Number of root slots in the header. */
  public static final int ROOT_SLOTS = 16;

  /** Root slot holding {@link NvmDirectory}'s file table. */
  public static final int DIRECTORY_ROOT = 0;

  static final byte[] MAGIC = "LNVMPOOL".getBytes(StandardCharsets.US_ASCII);
  private static final int OFF_VERSION = 8;
  private static final int OFF_HEADER_SIZE = 12;
  private static final int OFF_POOL_SIZE = 16;
  private static final int OFF_CREATED = 24;
  private static final int OFF_CHECKSUM = 32;
  private static final int OFF_CLEAN = 40;
  private static final int OFF_ROOTS = 64;
  private static final int CHECKSUMMED_BYTES = 32;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong ROOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ROOT_HANDLE = ROOT.varHandle();
  private static final int ZERO_FILL_CHUNK = 1 << 20;

  /** What {@link #open} may do to the file. */
  public enum OpenMode {
    /** Open an existing pool, or create and format one if the file is missing or empty. */
    CREATE_OR_OPEN,
    /** Open an existing pool; fail if there is none. */
    OPEN,
    /** Format the file as a new, empty pool, destroying whatever it held. */
    FORMAT
  }

  private final Path path;
  private final FileChannel channel;
  private final FileLock lock;
  private final MappedPool pool;
  private final MemorySegment segment;
  private final long size;
  private final boolean openedClean;
  private final boolean created;
  private volatile boolean closed;

  private NvmHeap(
      Path path,
      FileChannel channel,
      FileLock lock,
      MappedPool pool,
      long size,
      boolean openedClean,
      boolean created) {
    this.path = path;
    this.channel = channel;
    this.lock = lock;
    this.pool = pool;
    this.segment = pool.segment();
    this.size = size;
    this.openedClean = openedClean;
    this.created = created;
  }

  /** Opens or creates the pool at {@code file} with the default (FFM) backend. */
  public static NvmHeap open(Path file, long size) throws IOException {
    return open(file, size, OpenMode.CREATE_OR_OPEN, new FfmPoolBackend());
  }

  /**
   * Opens the pool at {@code file}.
   *
   * @param size the pool size in bytes. A new pool gets exactly this size (rounded up to 4 KiB);
   *     an existing pool must be at least this large. 0 opens an existing pool at its own size.
   * @throws InvalidPoolException if the file is not a usable pool (the message says why)
   */
  public static NvmHeap open(Path file, long size, OpenMode mode, PoolBackend backend)
      throws IOException {
    if (size < 0) {
      throw new IllegalArgumentException("pool size must be >= 0, got " + size);
    }
    long requested = roundUp(size, HEADER_SIZE);
    boolean exists = Files.exists(file);
    if (!exists && mode == OpenMode.OPEN) {
      throw new InvalidPoolException(file, "does not exist");
    }
    if (exists && Files.isDirectory(file)) {
      throw new InvalidPoolException(file, "is a directory, not a pool file");
    }
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock = null;
    MappedPool pool = null;
    try {
      lock = lockOrFail(file, channel);
      boolean device = isDevice(file);
      long fileSize = device ? requested : channel.size();
      ByteBuffer header = readHeader(channel, fileSize);
      boolean format = mode == OpenMode.FORMAT || isBlank(header);
      if (format && mode == OpenMode.OPEN) {
        throw new InvalidPoolException(file, "holds no pool (empty header)");
      }
      long poolSize;
      boolean clean;
      if (format) {
        if (requested < 2L * HEADER_SIZE) {
          throw new InvalidPoolException(
              file, "a new pool needs a size of at least " + 2 * HEADER_SIZE + " bytes, got " + size);
        }
        poolSize = requested;
        if (!device) {
          preallocate(channel, fileSize, poolSize);
        }
        clean = true;
      } else {
        poolSize = validate(file, header, fileSize, requested);
        clean = header.getLong(OFF_CLEAN) == 1;
      }
      pool = backend.map(file, channel, poolSize);
      NvmHeap heap = new NvmHeap(file, channel, lock, pool, poolSize, clean, format);
      if (format) {
        heap.format();
      }
      heap.segment.set(LONG, OFF_CLEAN, 0L);
      heap.persist(OFF_CLEAN, Long.BYTES);
      return heap;
    } catch (Throwable t) {
      if (pool != null) {
        pool.close();
      }
      if (lock != null) {
        lock.release();
      }
      channel.close();
      throw t;
    }
  }

  private static FileLock lockOrFail(Path file, FileChannel channel) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new InvalidPoolException(file, "is already open in this process");
    }
    if (lock == null) {
      throw new InvalidPoolException(file, "is already open in another process");
    }
    return lock;
  }

  private static boolean isDevice(Path file) throws IOException {
    return !Files.isRegularFile(file) && Files.exists(file);
  }

  private static ByteBuffer readHeader(FileChannel channel, long fileSize) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    long toRead = Math.min(fileSize, HEADER_SIZE);
    while (header.position() < toRead) {
      if (channel.read(header, header.position()) < 0) {
        break;
      }
    }
    return header;
  }

  /**
   * A header whose magic is all zeros never held data: {@link #format} writes the magic last, so
   * this is a new file, an empty device or a format that was interrupted.
   */
  private static boolean isBlank(ByteBuffer header) {
    return header.getLong(0) == 0;
  }

  private static long validate(Path file, ByteBuffer header, long fileSize, long requested)
      throws InvalidPoolException {
    byte[] magic = new byte[MAGIC.length];
    header.get(0, magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw new InvalidPoolException(
          file,
          "is not a lucene-nvm pool (wrong magic; open it with OpenMode.FORMAT to overwrite it)");
    }
    int version = header.getInt(OFF_VERSION);
    if (version != FORMAT_VERSION) {
      throw new InvalidPoolException(
          file,
          "has format version " + version + ", this build reads version " + FORMAT_VERSION);
    }
    if (header.getLong(OFF_CHECKSUM) != headerChecksum(header)) {
      throw new InvalidPoolException(file, "header checksum mismatch (the header is damaged)");
    }
    long poolSize = header.getLong(OFF_POOL_SIZE);
    if (header.getInt(OFF_HEADER_SIZE) != HEADER_SIZE || poolSize < 2L * HEADER_SIZE) {
      throw new InvalidPoolException(file, "header has impossible sizes (the header is damaged)");
    }
    if (fileSize < poolSize) {
      throw new InvalidPoolException(
          file, "is truncated: the header says " + poolSize + " bytes, the file has " + fileSize);
    }
    if (requested > poolSize) {
      throw new InvalidPoolException(
          file, "holds " + poolSize + " bytes, smaller than the requested " + requested);
    }
    return poolSize;
  }

  private static long headerChecksum(ByteBuffer header) {
    CRC32 crc = new CRC32();
    crc.update(header.slice(0, CHECKSUMMED_BYTES));
    return crc.getValue();
  }

  /** Writes zeros up to {@code size}, so the pool's storage is really allocated now. */
  private static void preallocate(FileChannel channel, long from, long size) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_FILL_CHUNK);
    for (long pos = Math.min(from, size); pos < size; ) {
      zeros.clear().limit((int) Math.min(ZERO_FILL_CHUNK, size - pos));
      pos += channel.write(zeros, pos);
    }
    channel.force(true);
  }

  /** Writes a new header; the magic goes last, so an interrupted format leaves a blank pool. */
  private void format() throws IOException {
    segment.asSlice(0, HEADER_SIZE).fill((byte) 0);
    persist(0, HEADER_SIZE);
    ByteBuffer header = segment.asSlice(0, HEADER_SIZE).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    header.put(0, MAGIC);
    header.putInt(OFF_VERSION, FORMAT_VERSION);
    header.putInt(OFF_HEADER_SIZE, HEADER_SIZE);
    header.putLong(OFF_POOL_SIZE, size);
    header.putLong(OFF_CREATED, System.currentTimeMillis());
    long checksum = headerChecksum(header);
    header.putLong(0, 0L);
    header.putLong(OFF_CHECKSUM, checksum);
    persist(0, HEADER_SIZE);
    header.put(0, MAGIC);
    persist(0, MAGIC.length);
  }

  private static long roundUp(long value, long multiple) {
    return (value + multiple - 1) / multiple * multiple;
  }

  /** The pool file. */
  public Path path() {
    return path;
  }

  /** The pool size in bytes. */
  public long size() {
    return size;
  }

  /** The whole pool as one memory segment (header included). */
  public MemorySegment segment() {
    return segment;
  }

  /** True if the mapping is synchronous (MAP_SYNC on DAX), false on an emulated pool. */
  public boolean isSynchronous() {
    return pool.isSynchronous();
  }

  /** True if this open formatted a new pool. */
  public boolean wasCreated() {
    return created;
  }

  /** True if the previous user closed the pool cleanly (always true for a new pool). */
  public boolean openedAfterCleanShutdown() {
    return openedClean;
  }

  /** Makes the stores to {@code [offset, offset + length)} durable. */
  public void persist(long offset, long length) throws IOException {
    pool.persist(offset, length);
  }

  /** Reads root slot {@code slot}: a persistent pointer, or 0 if unset. */
  public long root(int slot) {
    return (long) ROOT_HANDLE.getVolatile(segment, rootOffset(slot));
  }

  /**
   * Publishes {@code value} in root slot {@code slot} with one aligned 8-byte store, then persists
   * it. Whatever the value points to must already be persisted.
   */
  public void publishRoot(int slot, long value) throws IOException {
    long offset = rootOffset(slot);
    ROOT_HANDLE.setVolatile(segment, offset, value);
    persist(offset, Long.BYTES);
  }

  private static long rootOffset(int slot) {
    if (slot < 0 || slot >= ROOT_SLOTS) {
      throw new IllegalArgumentException("root slot must be in [0, " + ROOT_SLOTS + "), got " + slot);
    }
    return OFF_ROOTS + (long) slot * Long.BYTES;
  }

  /** Marks the pool cleanly shut down, unmaps it and releases its lock. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      segment.set(LONG, OFF_CLEAN, 1L);
      persist(OFF_CLEAN, Long.BYTES);
    } finally {
      try {
        pool.close();
      } finally {
        try {
          lock.release();
        } finally {
          channel.close();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "NvmHeap(" + path + ", " + size + " bytes, " + (isSynchronous() ? "MAP_SYNC" : "emulated") + ")";
  }

}
