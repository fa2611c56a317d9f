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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apache.lucene.util.IOUtils;

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
 *   <li>48: growth record: the pool size before and after the last growth (int64 each; 0, 0 if
 *       the pool never grew), which makes a size switch that a crash tore readable
 *   <li>64: {@value #ROOT_SLOTS} root slots (int64 each), persistent pointers owned by the heap's
 *       users (slot {@value #DIRECTORY_ROOT} is {@link NvmDirectory}'s file table)
 * </ul>
 *
 * <p>A pool is locked for the process that opens it. Opening never reformats a pool that holds
 * data unless {@link OpenMode#FORMAT} asks for it, and grows a pool in place when it is opened
 * with a larger size: the file is extended with zeros and synced, then the header switches to the
 * new size crash-consistently (see {@link #open(Path, long, OpenMode, PoolBackend)}). A pool never
 * shrinks.
 *
 * <p>An open pool grows too ({@link #grow}): the new range is mapped as one more <em>chunk</em>
 * and no mapping is ever moved or unmapped while the pool is open, since readers hold addresses
 * into them. Offsets stay pool offsets; {@link #segment(long, long)} and {@link #persist} find the
 * chunk of an offset. A range never spans two chunks (whoever allocates keeps a boundary at each
 * chunk start). After a restart the whole pool is one chunk again.
 */
public final class NvmHeap implements AutoCloseable {
  /** Bytes reserved at the start of the pool for the header. */
  public static final int HEADER_SIZE = PoolHeader.SIZE;

  /** The pool format this build reads and writes. */
  public static final int FORMAT_VERSION = PoolHeader.FORMAT_VERSION;

  /** Number of root slots in the header. */
  public static final int ROOT_SLOTS = 16;

  /** Root slot holding {@link NvmDirectory}'s file table. */
  public static final int DIRECTORY_ROOT = 0;

  private static final ValueLayout.OfLong ROOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ROOT_HANDLE = ROOT.varHandle();
  private static final int ZERO_FILL_CHUNK = 1 << 20;

  /** What {@link #open} may do to the file. */
  public enum OpenMode {
    /**
     * Open an existing pool (growing it if it is smaller than the size asked for), or create and
     * format one if the file is missing or empty.
     */
    CREATE_OR_OPEN,
    /** Open an existing pool (growing it if it is smaller than the size asked for); fail if there is none. */
    OPEN,
    /** Format the file as a new, empty pool, destroying whatever it held. */
    FORMAT
  }

  /** A mapping of {@code [start, start + segment.byteSize())} of the pool. */
  private record Chunk(long start, MappedPool pool, MemorySegment segment) {
    long end() {
      return start + segment.byteSize();
    }
  }

  private final Path path;
  private final FileChannel channel;
  private final FileLock lock;
  private final PoolBackend backend;
  private final boolean device;
  /** Chunk 0: the pool as opened, holding the header. */
  private final MappedPool headerPool;
  private final MemorySegment header;
  /** Every chunk in pool order; replaced (never changed) by {@link #grow}, under this object's lock. */
  private volatile Chunk[] chunks;
  /** The size the header records; written by {@link #grow} under this object's lock. */
  private volatile long size;
  /** Why the size switch of a growth failed (then chunks reach past the size); under this object's lock. */
  private Exception failedSwitch;
  private final long sizeBeforeOpen;
  private final boolean openedClean;
  private volatile boolean closed;

  private NvmHeap(
      Path path,
      FileChannel channel,
      FileLock lock,
      PoolBackend backend,
      boolean device,
      MappedPool pool,
      long size,
      long sizeBeforeOpen,
      boolean openedClean) {
    this.path = path;
    this.channel = channel;
    this.lock = lock;
    this.backend = backend;
    this.device = device;
    this.headerPool = pool;
    this.header = pool.segment();
    this.chunks = new Chunk[] {new Chunk(0, pool, pool.segment())};
    this.size = size;
    this.sizeBeforeOpen = sizeBeforeOpen;
    this.openedClean = openedClean;
  }

  /** Opens, grows or creates the pool at {@code file} with the default (FFM) backend. */
  public static NvmHeap open(Path file, long size) throws IOException {
    return open(file, size, OpenMode.CREATE_OR_OPEN, new FfmPoolBackend());
  }

  /**
   * Opens the pool at {@code file}.
   *
   * <p>An existing pool smaller than {@code size} grows in place: the file is extended with zeros
   * and synced (the file system must have the room: checked first, and a failed extension is
   * truncated away), then the header records the growth (old and new size, persisted) and switches
   * size and checksum in one persist. A crash at any point leaves the old pool or the new one, both
   * openable and holding every published byte; the next open with the larger size completes the
   * growth. A device ({@code /dev/dax}) has no file length: it is trusted to hold {@code size}
   * bytes, as when a pool is created on it.
   *
   * @param size the pool size in bytes, rounded up to 4 KiB. A new pool gets exactly this size; an
   *     existing smaller pool grows to it; an existing larger pool keeps its size (pools never
   *     shrink). 0 opens an existing pool at its own size.
   * @throws InvalidPoolException if the file is not a usable pool or cannot grow (the message says
   *     why)
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
      boolean format = mode == OpenMode.FORMAT || PoolHeader.isBlank(header);
      if (format && mode == OpenMode.OPEN) {
        throw new InvalidPoolException(file, "holds no pool (empty header)");
      }
      PoolHeader.Recorded recorded;
      long poolSize;
      if (format) {
        if (requested < PoolHeader.MIN_POOL_SIZE) {
          throw new InvalidPoolException(
              file, "a new pool needs a size of at least " + PoolHeader.MIN_POOL_SIZE + " bytes, got " + size);
        }
        recorded = null;
        poolSize = requested;
        if (!device) {
          preallocate(channel, fileSize, poolSize);
        }
      } else {
        recorded = PoolHeader.validate(file, header, fileSize);
        poolSize = Math.max(recorded.size(), requested);
        if (poolSize > recorded.size() && !device) {
          extend(file, channel, recorded.size(), fileSize, poolSize);
        }
      }
      pool = backend.map(file, channel, poolSize);
      if (format) {
        PoolHeader.format(pool, poolSize);
      } else {
        if (recorded.torn()) {
          PoolHeader.repair(pool, recorded.size());
        }
        if (poolSize > recorded.size()) {
          PoolHeader.switchSize(pool, recorded.size(), poolSize);
        }
      }
      PoolHeader.setClean(pool, false);
      return new NvmHeap(
          file, channel, lock, backend, device, pool, poolSize, format ? 0 : recorded.size(), format || recorded.clean());
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
   * Extends the file of a pool of {@code poolSize} bytes to {@code newSize} with zeros, synced. A
   * file already longer (a growth a crash interrupted) is extended only past its end. On failure
   * the file is truncated back to its length and the pool stays as it was.
   */
  private static void extend(Path file, FileChannel channel, long poolSize, long fileSize, long newSize)
      throws IOException {
    String growth = "cannot grow from " + poolSize + " to " + newSize + " bytes: ";
    long usable = Files.getFileStore(file).getUsableSpace();
    if (newSize - fileSize > usable) {
      throw new InvalidPoolException(
          file, growth + "the file system has " + usable + " bytes free, " + (newSize - fileSize) + " needed");
    }
    try {
      preallocate(channel, fileSize, newSize);
    } catch (IOException e) {
      try {
        channel.truncate(fileSize);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new InvalidPoolException(file, growth + e, e);
    }
  }

  /** Writes zeros from {@code from} up to {@code size}, so the pool's storage is really allocated now. */
  private static void preallocate(FileChannel channel, long from, long size) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_FILL_CHUNK);
    for (long pos = Math.min(from, size); pos < size; ) {
      zeros.clear().limit((int) Math.min(ZERO_FILL_CHUNK, size - pos));
      pos += channel.write(zeros, pos);
    }
    channel.force(true);
  }

  private static long roundUp(long value, long multiple) {
    return (value + multiple - 1) / multiple * multiple;
  }

  /** The pool file. */
  public Path path() {
    return path;
  }

  /** The pool size in bytes (larger after {@link #grow}). */
  public long size() {
    return size;
  }

  /** Number of mappings the pool is made of: 1, plus one for each {@link #grow} since it opened. */
  public int chunkCount() {
    return chunks.length;
  }

  /**
   * Where each chunk of the pool ends, in pool order: the last is {@link #size()} (a chunk mapped
   * by a growth whose header switch failed is not part of the pool).
   */
  long[] chunkEnds() {
    long poolSize = size;
    return Arrays.stream(chunks).mapToLong(Chunk::end).filter(end -> end <= poolSize).toArray();
  }

  /**
   * The bytes {@code [offset, offset + length)} of the pool, readable and writable while the pool
   * is open. The range must lie in one chunk (see {@link #grow}): any range of a pool that did not
   * grow since it opened, any extent of an {@link NvmDirectory}.
   *
   * @throws IndexOutOfBoundsException if the range is not in the pool
   * @throws IllegalArgumentException if the range spans a chunk boundary
   */
  public MemorySegment segment(long offset, long length) {
    Chunk chunk = chunkAt(chunks, offset, length);
    if (offset + length > chunk.end()) {
      throw new IllegalArgumentException(
          "range ["
              + offset
              + ", "
              + (offset + length)
              + ") of pool "
              + path
              + " spans the chunk boundary at "
              + chunk.end()
              + " (chunks of a pool that grew while open are separate mappings)");
    }
    return chunk.segment().asSlice(offset - chunk.start(), length);
  }

  /** The chunk holding {@code offset} (the last one for an empty range at the end). */
  private Chunk chunkAt(Chunk[] all, long offset, long length) {
    Chunk last = all[all.length - 1];
    if (offset < 0 || length < 0 || offset + length > last.end()) {
      throw new IndexOutOfBoundsException(
          "range [" + offset + ", " + (offset + length) + ") is outside pool " + path + " of " + last.end() + " bytes");
    }
    int i = all.length - 1;
    while (all[i].start() > offset) {
      i--;
    }
    return all[i];
  }

  /** True if the mapping is synchronous (MAP_SYNC on DAX), false on an emulated pool. */
  public boolean isSynchronous() {
    return headerPool.isSynchronous();
  }

  /**
   * Grows the open pool to {@code newSize} bytes (rounded up to 4 KiB; nothing happens if the pool
   * is not smaller). The steps are those of a growth at open: the file is extended with zeros and
   * synced (the file system's usable space checked first, a failed extension truncated away), the
   * new range is mapped as one more chunk, then the header records the growth and switches size
   * and checksum. A crash at any point leaves the old pool or the new one, both openable and
   * holding every published byte. The new range may be used once this returns (the new size is
   * then durable); the mappings made before stay valid, so readers are never disturbed.
   *
   * <p>Serialized with other growths; safe while other threads read, write and persist the pool.
   *
   * @throws InvalidPoolException if the file system cannot hold the new size (the pool unchanged)
   * @throws IOException if the backend cannot map part of a pool (the file truncated back), or the
   *     pool is on a device
   */
  public synchronized void grow(long newSize) throws IOException {
    if (closed) {
      throw new IOException("pool " + path + " is closed");
    }
    long to = roundUp(newSize, HEADER_SIZE);
    long from = size;
    if (to <= from) {
      return;
    }
    if (device) {
      throw new IOException("pool " + path + " is on a device, which cannot grow while it is open");
    }
    if (failedSwitch != null) {
      throw new IOException(
          "pool " + path + " cannot grow again while open: the header switch of an earlier growth failed ("
              + failedSwitch
              + "); reopen the pool",
          failedSwitch);
    }
    long fileSize = channel.size();
    extend(path, channel, from, fileSize, to);
    MappedPool pool;
    try {
      pool = backend.mapRange(path, channel, from, to - from);
    } catch (IOException | RuntimeException e) {
      try {
        channel.truncate(fileSize); // nothing maps the extension
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    Chunk[] all = chunks;
    Chunk[] grown = Arrays.copyOf(all, all.length + 1);
    grown[all.length] = new Chunk(from, pool, pool.segment());
    chunks = grown;
    try {
      PoolHeader.switchSize(headerPool, from, to);
    } catch (IOException | RuntimeException e) {
      failedSwitch = e;
      throw e;
    }
    size = to;
  }

  /** True if this open formatted a new pool. */
  public boolean wasCreated() {
    return sizeBeforeOpen == 0;
  }

  /**
   * The pool size recorded before this open: smaller than {@link #size()} if this open grew the
   * pool, 0 if it created it.
   */
  public long sizeBeforeOpen() {
    return sizeBeforeOpen;
  }

  /** True if the previous user closed the pool cleanly (always true for a new pool). */
  public boolean openedAfterCleanShutdown() {
    return openedClean;
  }

  /** Makes the stores to {@code [offset, offset + length)} durable. */
  public void persist(long offset, long length) throws IOException {
    Chunk[] all = chunks;
    while (length > 0) {
      Chunk chunk = chunkAt(all, offset, length);
      long inChunk = Math.min(length, chunk.end() - offset);
      chunk.pool().persist(offset - chunk.start(), inChunk);
      offset += inChunk;
      length -= inChunk;
    }
  }

  /** Reads root slot {@code slot}: a persistent pointer, or 0 if unset. */
  public long root(int slot) {
    return (long) ROOT_HANDLE.getVolatile(header, rootOffset(slot));
  }

  /**
   * Publishes {@code value} in root slot {@code slot} with one aligned 8-byte store, then persists
   * it. Whatever the value points to must already be persisted.
   */
  public void publishRoot(int slot, long value) throws IOException {
    long offset = rootOffset(slot);
    ROOT_HANDLE.setVolatile(header, offset, value);
    persist(offset, Long.BYTES);
  }

  private static long rootOffset(int slot) {
    if (slot < 0 || slot >= ROOT_SLOTS) {
      throw new IllegalArgumentException("root slot must be in [0, " + ROOT_SLOTS + "), got " + slot);
    }
    return PoolHeader.ROOTS + (long) slot * Long.BYTES;
  }

  /** Marks the pool cleanly shut down, unmaps it (every chunk) and releases its lock. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      PoolHeader.setClean(headerPool, true);
    } finally {
      try {
        IOUtils.close(Arrays.stream(chunks).map(Chunk::pool).toList());
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
    return "NvmHeap(" + path + ", " + size + " bytes, " + chunks.length + " chunk(s), " + (isSynchronous() ? "MAP_SYNC" : "emulated") + ")";
  }

}
