package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.BaseDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.LockFactory;
import org.apache.lucene.store.SingleInstanceLockFactory;

/**
 * A Lucene {@link org.apache.lucene.store.Directory} whose files live in an {@link NvmHeap}.
 *
 * <ul>
 *   <li>Reads are loads from the mapped pool ({@link IndexInput}, slices, clones and {@link
 *       org.apache.lucene.store.RandomAccessInput} included); nothing is copied to the Java heap.
 *       Inputs are {@link org.apache.lucene.store.MemorySegmentAccessInput}s, so Lucene's
 *       segment-based (vectorized) decoding applies as on {@code MMapDirectory}.
 *   <li>Writes are stores into extents of the pool with a running CRC32; a closed file is one
 *       contiguous extent whenever the pool has room for it. Closing an output makes the file
 *       visible, {@link #sync} persists its bytes and then publishes it durably.
 *   <li>The file table lives in the pool and is replaced copy-on-write: the new table is written
 *       and persisted first, then one 8-byte store to the heap's root slot {@link
 *       NvmHeap#DIRECTORY_ROOT}, persisted, makes it current. {@link #rename} and {@link
 *       #deleteFile} are atomic in that sense. After a crash the pool holds the last published
 *       table, and space held by anything else (files never synced, half-written outputs) is free
 *       again.
 *   <li>Deleting a file that readers still have open is safe: its extents are reused only after
 *       the last input on it is closed.
 * </ul>
 *
 * <p>Locking is in-process ({@link SingleInstanceLockFactory} by default); the pool file itself
 * is locked against other processes by {@link NvmHeap}.
 */
public final class NvmDirectory extends BaseDirectory {
  private static final long MIN_TABLE_CAPACITY = 64 * 1024;

  private final NvmHeap heap;
  private final boolean ownsHeap;
  private final MemorySegment pool;
  private final ExtentAllocator allocator;
  private final ConcurrentSkipListMap<String, NvmFile> files = new ConcurrentSkipListMap<>();
  private final Map<String, NvmIndexOutput> writing = new ConcurrentHashMap<>();
  private final Set<Arena> openInputs = ConcurrentHashMap.newKeySet();
  private final AtomicLong tempFileCounter = new AtomicLong();
  private final Object metadataLock = new Object();
  // Guarded by metadataLock: the current table block, the spare block and the generation.
  private long tableOffset;
  private long tableCapacity;
  private long spareOffset;
  private long spareCapacity;
  private long generation;

  /**
   * Opens (creating it if needed) the pool at {@code poolFile} with the default backend and
   * returns a directory over it that closes the pool when it is closed.
   */
  public static NvmDirectory open(Path poolFile, long poolSizeBytes) throws IOException {
    NvmHeap heap = NvmHeap.open(poolFile, poolSizeBytes);
    try {
      return new NvmDirectory(heap, new SingleInstanceLockFactory(), true);
    } catch (Throwable t) {
      heap.close();
      throw t;
    }
  }

  /** A directory over {@code heap}; closing the directory leaves the heap open. */
  public NvmDirectory(NvmHeap heap, LockFactory lockFactory) throws IOException {
    this(heap, lockFactory, false);
  }

  private NvmDirectory(NvmHeap heap, LockFactory lockFactory, boolean ownsHeap) throws IOException {
    super(lockFactory);
    this.heap = heap;
    this.ownsHeap = ownsHeap;
    this.pool = heap.segment();
    long end = heap.size() / ExtentAllocator.BLOCK * ExtentAllocator.BLOCK;
    this.allocator = new ExtentAllocator(NvmHeap.HEADER_SIZE, end);
    load();
  }

  private void load() throws IOException {
    long root = heap.root(NvmHeap.DIRECTORY_ROOT);
    if (root == 0) {
      return;
    }
    FileTable.Decoded table;
    try {
      table = FileTable.read(pool, root);
      allocator.markUsed(root, table.capacity());
      if (table.spareCapacity() > 0) {
        allocator.markUsed(table.spareOffset(), table.spareCapacity());
      }
      for (Map.Entry<String, NvmFile> e : table.files().entrySet()) {
        NvmFile file = e.getValue();
        for (int i = 0; i < file.extentCount(); i++) {
          allocator.markUsed(file.extentOffset(i), file.extentLength(i));
        }
        files.put(e.getKey(), file);
      }
    } catch (IOException | RuntimeException e) {
      throw new InvalidPoolException(heap.path(), "directory file table is damaged: " + e.getMessage());
    }
    tableOffset = root;
    tableCapacity = table.capacity();
    spareOffset = table.spareOffset();
    spareCapacity = table.spareCapacity();
    generation = table.generation();
  }

  /** The heap this directory stores its files in. */
  public NvmHeap heap() {
    return heap;
  }

  /**
   * Bytes of the pool not used by files or the file table; a volatile read kept up to date by the
   * allocator (no lock), cheap enough for every write's flood-stage check.
   */
  public long freeBytes() {
    return allocator.freeBytes();
  }

  @Override
  public String[] listAll() throws IOException {
    ensureOpen();
    // Copy through arrays: a sorted-set copy of a concurrent map's key set fails if an entry
    // disappears while it is being copied.
    TreeSet<String> names = new TreeSet<>(Arrays.asList(files.keySet().toArray(String[]::new)));
    names.addAll(Arrays.asList(writing.keySet().toArray(String[]::new)));
    return names.toArray(String[]::new);
  }

  /** Extents holding the closed file {@code name}: 1 when it is contiguous in the pool. */
  int extentCount(String name) throws IOException {
    ensureOpen();
    NvmFile file = files.get(name);
    if (file == null) {
      throw new NoSuchFileException(name);
    }
    return file.extentCount();
  }

  @Override
  public long fileLength(String name) throws IOException {
    ensureOpen();
    NvmFile file = files.get(name);
    if (file != null) {
      return file.length();
    }
    NvmIndexOutput out = writing.get(name);
    if (out != null) {
      return out.getFilePointer();
    }
    throw new NoSuchFileException(name);
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    ensureOpen();
    synchronized (metadataLock) {
      if (files.containsKey(name) || writing.containsKey(name)) {
        throw new FileAlreadyExistsException(name);
      }
      NvmIndexOutput out = new NvmIndexOutput(name, context, this, allocator, pool);
      writing.put(name, out);
      return out;
    }
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
      throws IOException {
    ensureOpen();
    while (true) {
      String name = getTempFileName(prefix, suffix, tempFileCounter.getAndIncrement());
      synchronized (metadataLock) {
        if (!files.containsKey(name) && !writing.containsKey(name)) {
          return createOutput(name, context);
        }
      }
    }
  }

  /** Called by an output when it closes: the file becomes visible (not yet durable). */
  void outputClosed(NvmIndexOutput out, NvmFile file) {
    synchronized (metadataLock) {
      if (writing.remove(out.getName(), out)) {
        files.put(out.getName(), file);
        return;
      }
    }
    file.decRef(allocator); // deleted while it was being written
  }

  @Override
  public void deleteFile(String name) throws IOException {
    ensureOpen();
    NvmFile removed;
    synchronized (metadataLock) {
      if (writing.remove(name) != null) {
        return;
      }
      removed = files.remove(name);
      if (removed == null) {
        throw new NoSuchFileException(name);
      }
      if (removed.isPersisted()) {
        try {
          publishTable();
        } catch (IOException | RuntimeException e) {
          files.put(name, removed);
          throw e;
        }
      }
    }
    removed.decRef(allocator);
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    ensureOpen();
    synchronized (metadataLock) {
      NvmFile file = files.get(source);
      if (file == null) {
        throw new NoSuchFileException(source);
      }
      if (files.containsKey(dest) || writing.containsKey(dest)) {
        throw new FileAlreadyExistsException(dest);
      }
      files.put(dest, file);
      files.remove(source);
      if (file.isPersisted()) {
        try {
          publishTable();
        } catch (IOException | RuntimeException e) {
          files.put(source, file);
          files.remove(dest);
          throw e;
        }
      }
    }
  }

  /**
   * Persists the files' bytes, then publishes a file table naming them unless one already does.
   * Returns only when a published table names every file: a file persisted by a concurrent sync
   * that has not published yet is not durable, so this waits for (or makes) the publication.
   */
  @Override
  public void sync(Collection<String> names) throws IOException {
    ensureOpen();
    List<NvmFile> synced = new ArrayList<>(names.size());
    for (String name : names) {
      NvmFile file = files.get(name);
      if (file == null) {
        throw new NoSuchFileException(name);
      }
      file.persist(heap);
      synced.add(file);
    }
    if (!allPublished(synced)) {
      synchronized (metadataLock) {
        if (!allPublished(synced)) {
          publishTable();
        }
      }
    }
  }

  private static boolean allPublished(List<NvmFile> files) {
    for (NvmFile file : files) {
      if (!file.isPublished()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void syncMetaData() throws IOException {
    ensureOpen();
  }

  /**
   * Writes the table of persisted files into the spare block (or a new, larger one), persists it
   * and makes it current with one root-slot store. Caller holds {@link #metadataLock}.
   */
  private void publishTable() throws IOException {
    Map<String, NvmFile> durable = new ConcurrentSkipListMap<>();
    files.forEach(
        (name, file) -> {
          if (file.isPersisted()) {
            durable.put(name, file);
          }
        });
    long needed = FileTable.encodedLength(durable);
    if (needed > spareCapacity) {
      long capacity = ExtentAllocator.blocks(Math.max(MIN_TABLE_CAPACITY, 2 * needed));
      long offset = allocator.allocate(capacity);
      if (spareCapacity > 0) {
        allocator.free(spareOffset, spareCapacity);
      }
      spareOffset = offset;
      spareCapacity = capacity;
    }
    FileTable.write(
        pool.asSlice(spareOffset, spareCapacity),
        spareCapacity,
        generation + 1,
        tableOffset,
        tableCapacity,
        durable);
    heap.persist(spareOffset, needed);
    heap.publishRoot(NvmHeap.DIRECTORY_ROOT, spareOffset);
    durable.values().forEach(NvmFile::markPublished);
    generation++;
    long oldOffset = tableOffset;
    long oldCapacity = tableCapacity;
    tableOffset = spareOffset;
    tableCapacity = spareCapacity;
    spareOffset = oldOffset;
    spareCapacity = oldCapacity;
  }

  /** The file {@code name} with one more reference, failing as {@link #openInput} documents. */
  private NvmFile acquireFile(String name) throws IOException {
    NvmFile file = files.get(name);
    if (file != null && file.tryIncRef()) {
      return file;
    }
    // Look again under the lock: the output may have closed since (outputClosed moves it).
    synchronized (metadataLock) {
      file = files.get(name);
      if (file != null && file.tryIncRef()) {
        return file;
      }
      if (writing.containsKey(name)) {
        throw new AccessDeniedException(name, null, "still being written");
      }
      throw new NoSuchFileException(name);
    }
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    ensureOpen();
    NvmFile file = acquireFile(name);
    Arena arena = Arena.ofShared();
    MemorySegment[] segments = new MemorySegment[Math.max(1, file.extentCount())];
    if (file.extentCount() == 0) {
      segments[0] = MemorySegment.ofAddress(pool.address()).reinterpret(0, arena, null);
    }
    for (int i = 0; i < file.extentCount(); i++) {
      segments[i] =
          MemorySegment.ofAddress(pool.address() + file.extentOffset(i))
              .reinterpret(file.extentLength(i), arena, null);
    }
    openInputs.add(arena);
    Runnable closer =
        () -> {
          if (openInputs.remove(arena)) {
            arena.close();
          }
          file.decRef(allocator);
        };
    return NvmIndexInput.open("NvmIndexInput(path=\"" + heap.path() + ":" + name + "\")", segments, closer);
  }

  /**
   * Creates the file {@code name} as a durable region of {@code length} zero bytes in one
   * contiguous extent, to be updated in place (see {@link NvmRegion}). The file is durable and
   * listed when this returns.
   *
   * @throws PoolFullException if no free extent is that large
   */
  public NvmRegion createRegion(String name, long length) throws IOException {
    ensureOpen();
    if (length <= 0) {
      throw new IllegalArgumentException("region length must be > 0, got " + length);
    }
    synchronized (metadataLock) {
      if (files.containsKey(name) || writing.containsKey(name)) {
        throw new FileAlreadyExistsException(name);
      }
      long offset = allocator.allocate(length);
      pool.asSlice(offset, length).fill((byte) 0);
      NvmFile region = new NvmFile(new long[] {offset}, new long[] {length}, false);
      region.persist(heap);
      files.put(name, region);
      try {
        publishTable();
      } catch (IOException | RuntimeException e) {
        files.remove(name);
        allocator.free(offset, length);
        throw e;
      }
    }
    return openRegion(name);
  }

  /**
   * Opens the durable single-extent file {@code name} (made by {@link #createRegion}) for updates
   * in place.
   */
  public NvmRegion openRegion(String name) throws IOException {
    ensureOpen();
    NvmFile file = acquireFile(name);
    if (!file.isPersisted() || file.extentCount() != 1) {
      file.decRef(allocator);
      throw new IOException(
          "file " + name + " in " + heap.path() + " is not a region (" + file.extentCount() + " extents"
              + (file.isPersisted() ? "" : ", not synced") + ")");
    }
    return new NvmRegion(heap, name, file.extentOffset(0), file.extentLength(0), () -> file.decRef(allocator));
  }

  @Override
  public Set<String> getPendingDeletions() {
    return Set.of();
  }

  /**
   * Closes the directory. Inputs still open are invalidated (further reads fail with {@link
   * org.apache.lucene.store.AlreadyClosedException}); files closed but never synced are not
   * durable. Closes the heap if this directory opened it.
   */
  @Override
  public synchronized void close() throws IOException {
    if (!isOpen) {
      return;
    }
    isOpen = false;
    for (Arena arena : new ArrayList<>(openInputs)) {
      if (openInputs.remove(arena)) {
        arena.close();
      }
    }
    if (ownsHeap) {
      heap.close();
    }
  }

  @Override
  public String toString() {
    return "NvmDirectory@" + heap.path() + " lockFactory=" + lockFactory;
  }
}
