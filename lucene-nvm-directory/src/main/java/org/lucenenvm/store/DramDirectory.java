package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.store.BaseDirectory;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersIndexOutput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;

/**
 * A volatile {@link org.apache.lucene.store.Directory} whose files are native (off-heap) memory,
 * read through the same {@link IndexInput} classes as {@link NvmDirectory}.
 *
 * <p>This is the DRAM tier for code that also reads an {@link NvmDirectory}: when a JVM reads
 * segments through two input classes (say {@code MMapDirectory}'s and this package's), Lucene's
 * hot call sites, such as the {@code readByte} of a norms slice called once per scored document,
 * see both receivers; the JIT compiles them as virtual calls once their profile changes, and every
 * read then pays a call and a memory-session check. One class family for both tiers keeps those
 * sites monomorphic.
 *
 * <ul>
 *   <li>An output buffers on the heap (with a running CRC32); closing it copies the file into one
 *       native segment, after which it can be opened. Files are written once.
 *   <li>Inputs, clones and slices read that segment in place (single-segment inputs only).
 *   <li>A file's memory is freed when it is deleted (or the directory closed) and the last input
 *       opened on it is closed; reads through an input of a freed file throw {@link
 *       org.apache.lucene.store.AlreadyClosedException}.
 *   <li>{@link #sync} and {@link #syncMetaData} do nothing: nothing here survives the process.
 * </ul>
 */
public final class DramDirectory extends BaseDirectory {
  private final ConcurrentHashMap<String, DramFile> files = new ConcurrentHashMap<>();
  private final AtomicLong tempCounter = new AtomicLong();

  /** An empty directory with a {@link SingleInstanceLockFactory}. */
  public DramDirectory() {
    super(new SingleInstanceLockFactory());
  }

  @Override
  public String[] listAll() throws IOException {
    ensureOpen();
    return files.keySet().stream().sorted().toArray(String[]::new);
  }

  @Override
  public void deleteFile(String name) throws IOException {
    ensureOpen();
    DramFile removed = files.remove(name);
    if (removed == null) {
      throw new NoSuchFileException(name);
    }
    removed.release();
  }

  @Override
  public long fileLength(String name) throws IOException {
    ensureOpen();
    return file(name).length();
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    ensureOpen();
    DramFile file = new DramFile(name);
    if (files.putIfAbsent(name, file) != null) {
      throw new FileAlreadyExistsException(name);
    }
    return file.output();
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
      throws IOException {
    ensureOpen();
    while (true) {
      String name =
          IndexFileNames.segmentFileName(
              prefix,
              suffix + "_" + Long.toString(tempCounter.getAndIncrement(), Character.MAX_RADIX),
              "tmp");
      DramFile file = new DramFile(name);
      if (files.putIfAbsent(name, file) == null) {
        return file.output();
      }
    }
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    ensureOpen();
    DramFile file = file(source);
    if (files.putIfAbsent(dest, file) != null) {
      throw new FileAlreadyExistsException(dest);
    }
    files.remove(source, file);
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    ensureOpen();
  }

  @Override
  public void syncMetaData() throws IOException {
    ensureOpen();
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    ensureOpen();
    return file(name).openInput();
  }

  @Override
  public Set<String> getPendingDeletions() {
    return Set.of();
  }

  /** Frees every file whose inputs are closed; the others when their last input closes. */
  @Override
  public void close() {
    isOpen = false;
    for (String name : files.keySet()) {
      DramFile removed = files.remove(name);
      if (removed != null) { // each file is released once, by close or by deleteFile
        removed.release();
      }
    }
  }

  private DramFile file(String name) throws NoSuchFileException {
    DramFile file = files.get(name);
    if (file == null) {
      throw new NoSuchFileException(name);
    }
    return file;
  }

  /**
   * One file: heap-buffered while written, then one native segment in an arena of its own. {@code
   * holders} counts the directory's listing and every open input; the arena closes at zero.
   */
  private static final class DramFile {
    private final String name;
    private Arena arena;
    private MemorySegment content;
    private int holders = 1;

    DramFile(String name) {
      this.name = name;
    }

    IndexOutput output() {
      return new ByteBuffersIndexOutput(
          new ByteBuffersDataOutput(),
          "DramDirectory output(file=" + name + ")",
          name,
          new CRC32(),
          this::publish);
    }

    private synchronized void publish(ByteBuffersDataOutput written) {
      if (holders == 0) {
        return; // deleted while being written
      }
      arena = Arena.ofShared();
      content = arena.allocate(written.size());
      long offset = 0;
      for (ByteBuffer buffer : written.toBufferList()) {
        int length = buffer.remaining();
        MemorySegment.copy(MemorySegment.ofBuffer(buffer), 0, content, offset, length);
        offset += length;
      }
    }

    synchronized long length() {
      return content == null ? 0 : content.byteSize();
    }

    synchronized IndexInput openInput() throws IOException {
      if (holders == 0) {
        throw new NoSuchFileException(name);
      }
      if (content == null) {
        throw new AccessDeniedException(name, null, "still being written");
      }
      holders++;
      return NvmIndexInput.open(
          "DramDirectory input(file=" + name + ")", new MemorySegment[] {content}, this::release);
    }

    synchronized void release() {
      if (holders > 0 && --holders == 0 && arena != null) {
        arena.close();
      }
    }
  }
}
