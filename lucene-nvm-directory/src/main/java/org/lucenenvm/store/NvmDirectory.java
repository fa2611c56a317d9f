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
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.store.BaseDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
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
 *   <li>{@link #copyFrom} within the directory clones a file without copying a byte: the new file
 *       names the same extents. Extents are reference counted by the files naming them ({@link
 *       SharedExtents}); an extent is freed when the last of them is deleted, no published table
 *       names it any more and its readers are closed. The counts are rebuilt from the published
 *       table on open, as the free-space map is.
 *
 *   <li>With a {@link PoolGrowth} (off by default), the pool grows while the directory is open:
 *       when an allocation finds no room, or leaves less free than the watermark, up to the
 *       configured maximum and the file system's usable space less a margin. The new range is one
 *       more mapping ({@link NvmHeap#grow}); extents never span two, so a file larger than the
 *       room left in the old range is written in several extents or in the new range. A growth
 *       happens on the thread whose allocation triggered it, serialized with other growths but not
 *       with reads (which take no lock and whose mappings never move) nor with writes that find
 *       room; see {@link PoolGrower} for the lock order. A growth that cannot happen leaves the
 *       pool full as without growth: a {@link PoolFullException} saying why, nothing lost.
 * </ul>
 *
 * <p>Locking is in-process ({@link SingleInstanceLockFactory} by default); the pool file itself
 * is locked against other processes by {@link NvmHeap}.
 */
public final class NvmDirectory extends BaseDirectory {
  private static final long MIN_TABLE_CAPACITY = 64 * 1024;

  private final NvmHeap heap;
  private final boolean ownsHeap;
  private final PoolGrowth growth;
  private final PoolGrower grower; // null without growth
  private final ExtentAllocator allocator;
  private final SharedExtents extents;
  private final LongAdder bytesWritten = new LongAdder();
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
    return open(poolFile, poolSizeBytes, PoolGrowth.OFF);
  }

  /**
   * Opens (creating it if needed) the pool at {@code poolFile} with the default backend and
   * returns a directory over it that grows the pool as {@code growth} says while it is open, and
   * closes the pool when it is closed.
   */
  public static NvmDirectory open(Path poolFile, long poolSizeBytes, PoolGrowth growth) throws IOException {
    NvmHeap heap = NvmHeap.open(poolFile, poolSizeBytes);
    try {
      return new NvmDirectory(heap, new SingleInstanceLockFactory(), true, growth, new FileSystemRoom(FileSystemRoom.UsableSpace.FILE_STORE));
    } catch (Throwable t) {
      heap.close();
      throw t;
    }
  }

  /** A directory over {@code heap} that does not grow it; closing the directory leaves the heap open. */
  public NvmDirectory(NvmHeap heap, LockFactory lockFactory) throws IOException {
    this(heap, lockFactory, PoolGrowth.OFF);
  }

  /**
   * A directory over {@code heap} that grows it as {@code growth} says; closing the directory
   * leaves the heap open.
   */
  public NvmDirectory(NvmHeap heap, LockFactory lockFactory, PoolGrowth growth) throws IOException {
    this(heap, lockFactory, false, growth, new FileSystemRoom(FileSystemRoom.UsableSpace.FILE_STORE));
  }

  /** As {@link #NvmDirectory(NvmHeap, LockFactory, PoolGrowth)}, asking {@code fileSystem} for the file system's room. */
  NvmDirectory(NvmHeap heap, LockFactory lockFactory, PoolGrowth growth, FileSystemRoom fileSystem)
      throws IOException {
    this(heap, lockFactory, false, growth, fileSystem);
  }

  private NvmDirectory(
      NvmHeap heap, LockFactory lockFactory, boolean ownsHeap, PoolGrowth growth, FileSystemRoom fileSystem)
      throws IOException {
    super(lockFactory);
    this.heap = heap;
    this.ownsHeap = ownsHeap;
    this.growth = growth;
    long[] chunkEnds = heap.chunkEnds();
    this.allocator = new ExtentAllocator(NvmHeap.HEADER_SIZE, chunkEnds[0]);
    allocator.addChunks(chunkEnds); // a heap that grew while open
    this.extents = new SharedExtents(allocator);
    load();
    this.grower = growth.enabled() ? new PoolGrower(heap, allocator, growth, fileSystem) : null;
    if (grower != null) {
      allocator.setGrowth(grower);
    }
  }

  private void load() throws IOException {
    long root = heap.root(NvmHeap.DIRECTORY_ROOT);
    if (root == 0) {
      return;
    }
    FileTable.Decoded table;
    try {
      table = FileTable.read(heap, root);
      allocator.markUsed(root, table.capacity());
      if (table.spareCapacity() > 0) {
        allocator.markUsed(table.spareOffset(), table.spareCapacity());
      }
      extents.rebuild(table.files());
      files.putAll(table.files());
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

  /** How the pool grows while this directory is open ({@link PoolGrowth#OFF} if it does not). */
  public PoolGrowth poolGrowth() {
    return growth;
  }

  /**
   * Bytes of the pool not used by files or the file table; a volatile read kept up to date by the
   * allocator (no lock), cheap enough for every write's flood-stage check.
   */
  public long freeBytes() {
    return allocator.freeBytes();
  }

  /**
   * Bytes the pool can still grow by while this directory is open: {@code min(maxBytes - size,
   * usable bytes of the file system - margin)} of its {@link PoolGrowth}, in whole blocks; 0 with
   * growth off or at the maximum. The file system's usable space is read at most once a second
   * (between readings it is lowered by what the pool grew), so this is cheap enough for every
   * write's flood-stage check. An allocation that finds no room grows the pool by up to this much.
   */
  public long growableBytes() {
    return grower == null ? 0 : grower.growableBytes();
  }

  /**
   * Bytes written through the {@link IndexOutput}s of this instance since it was opened, counted
   * as each output closes (a byte copy by {@link #copyFrom} included, a clone adding nothing).
   */
  public long bytesWritten() {
    return bytesWritten.sum();
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
    return closedFile(name).extentCount();
  }

  /** The closed file {@code name} (for tests that look at its extents). */
  NvmFile closedFile(String name) throws IOException {
    ensureOpen();
    NvmFile file = files.get(name);
    if (file == null) {
      throw new NoSuchFileException(name);
    }
    return file;
  }

  /** Files naming the extent at {@code offset}: more than 1 when clones share it. */
  int extentReferences(long offset) {
    return extents.references(offset);
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
      if (exists(name)) {
        throw new FileAlreadyExistsException(name);
      }
      NvmIndexOutput out = new NvmIndexOutput(name, context, this, allocator, heap);
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
        if (!exists(name)) {
          return createOutput(name, context);
        }
      }
    }
  }

  /** Caller holds {@link #metadataLock} (or needs no consistent answer). */
  private boolean exists(String name) {
    return files.containsKey(name) || writing.containsKey(name);
  }

  /** Why the closed file {@code name} cannot be had: still being written, or no such file. */
  private IOException missing(String name) {
    if (writing.containsKey(name)) {
      return new AccessDeniedException(name, null, "still being written");
    }
    return new NoSuchFileException(name);
  }

  /** Called by an output when it closes: the file becomes visible (not yet durable). */
  void outputClosed(NvmIndexOutput out, NvmFile file) {
    extents.addNew(file);
    bytesWritten.add(file.length());
    synchronized (metadataLock) {
      if (writing.remove(out.getName(), out)) {
        files.put(out.getName(), file);
        return;
      }
    }
    file.decRef(extents); // deleted while it was being written
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
    removed.decRef(extents);
  }

  /**
   * Copies {@code src} of {@code from} to the new file {@code dest}. When {@code from} is this
   * directory, possibly wrapped in {@link FilterDirectory}s, no byte is copied: {@code dest} is a
   * clone naming exactly the extents of {@code src} (same length, same bytes, so its codec footer
   * holds), and the extents stay allocated until every file naming them is deleted and released.
   * Like any written file, the clone is durable once a {@link #sync} of it returns; it may be
   * published earlier only if the source's bytes were already persisted. Its bytes are immutable
   * as every Lucene file's are, but a clone of a region ({@link #createRegion}) sees the region's
   * updates in place. From any other directory the bytes are copied through an output.
   *
   * @throws NoSuchFileException if {@code src} does not exist
   * @throws FileAlreadyExistsException if {@code dest} exists
   */
  @Override
  public void copyFrom(Directory from, String src, String dest, IOContext context) throws IOException {
    if (FilterDirectory.unwrap(from) != this) {
      super.copyFrom(from, src, dest, context);
      return;
    }
    ensureOpen();
    synchronized (metadataLock) {
      NvmFile source = files.get(src);
      if (source == null) {
        throw missing(src);
      }
      if (exists(dest)) {
        throw new FileAlreadyExistsException(dest);
      }
      // The source is listed, so it holds its extents: counting one more name cannot race a free.
      NvmFile clone = source.share();
      extents.addClone(clone);
      files.put(dest, clone);
    }
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    ensureOpen();
    synchronized (metadataLock) {
      NvmFile file = files.get(source);
      if (file == null) {
        throw new NoSuchFileException(source);
      }
      if (exists(dest)) {
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
        heap.segment(spareOffset, spareCapacity),
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
      throw missing(name);
    }
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    ensureOpen();
    NvmFile file = acquireFile(name);
    Arena arena = Arena.ofShared();
    MemorySegment[] segments = new MemorySegment[Math.max(1, file.extentCount())];
    if (file.extentCount() == 0) {
      segments[0] = heap.segment(0, 0).reinterpret(arena, null);
    }
    for (int i = 0; i < file.extentCount(); i++) {
      segments[i] = heap.segment(file.extentOffset(i), file.extentLength(i)).reinterpret(arena, null);
    }
    openInputs.add(arena);
    Runnable closer =
        () -> {
          if (openInputs.remove(arena)) {
            arena.close();
          }
          file.decRef(extents);
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
      if (exists(name)) {
        throw new FileAlreadyExistsException(name);
      }
      long offset = allocator.allocate(length);
      heap.segment(offset, length).fill((byte) 0);
      NvmFile region = new NvmFile(new long[] {offset}, new long[] {length}, false);
      extents.addNew(region);
      try {
        region.persist(heap);
        files.put(name, region);
        publishTable();
      } catch (IOException | RuntimeException e) {
        files.remove(name);
        region.decRef(extents);
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
      file.decRef(extents);
      throw new IOException(
          "file " + name + " in " + heap.path() + " is not a region (" + file.extentCount() + " extents"
              + (file.isPersisted() ? "" : ", not synced") + ")");
    }
    return new NvmRegion(heap, name, file.extentOffset(0), file.extentLength(0), () -> file.decRef(extents));
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
