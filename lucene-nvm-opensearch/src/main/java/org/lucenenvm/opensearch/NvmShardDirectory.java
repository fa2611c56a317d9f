package org.lucenenvm.opensearch;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.NoLockFactory;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;

/**
 * A shard's index directory split in two: what OpenSearch reads with plain file-system calls
 * lives as real files in the shard's {@code index/} folder, everything else in the NVM pool.
 *
 * <p>OpenSearch's gateway ({@code Store.tryOpenIndex}) and its store listing ({@code
 * Store.readMetadataSnapshot}) open the {@code index/} folder with a plain {@code NIOFSDirectory}
 * and read the commit point and each segment's {@code .si}, never through a plugin's directory.
 * So these stay on the file system ({@link #isFileResident}):
 *
 * <ul>
 *   <li>commit points {@code segments_N} and {@code pending_segments_N};
 *   <li>segment infos {@code *.si};
 *   <li>the index lock {@code write.lock} and OpenSearch's corruption markers {@code corrupted_*};
 *   <li>the same names behind peer recovery's temporary prefix ({@code recovery.<uuid>.<name>}),
 *       so that recovery's final rename never crosses the two stores.
 * </ul>
 *
 * <p>Postings, stored fields, doc values, norms, points, vectors and compound files (the bulk of
 * an index) go to the pool. A commit first syncs the pool's files (persisting them and publishing
 * the pool's file table), then the file-system files, and only then does Lucene rename {@code
 * pending_segments_N}: a commit point never names a file that is not durable in the pool.
 */
public final class NvmShardDirectory extends Directory {
  private final FSDirectory fileSystem;
  private final NvmDirectory pool;
  private final NvmHeap heap;
  private final PoolFullReporter poolFull;

  /**
   * @param fileSystem the shard's {@code index/} folder; its lock factory locks the index
   * @param heap the shard's pool; this directory owns it and closes it
   * @param poolFull turns a full pool into an error that names the index, node and setting
   */
  public NvmShardDirectory(FSDirectory fileSystem, NvmHeap heap, PoolFullReporter poolFull)
      throws IOException {
    this.fileSystem = fileSystem;
    this.heap = heap;
    this.pool = new NvmDirectory(heap, NoLockFactory.INSTANCE);
    this.poolFull = poolFull;
  }

  /** True if {@code name} is kept as a real file, false if it lives in the pool. */
  public static boolean isFileResident(String name) {
    String base = name.startsWith("recovery.") ? name.substring(name.indexOf('.', 9) + 1) : name;
    return base.endsWith(".si")
        || base.startsWith("segments")
        || base.startsWith("pending_segments")
        || base.equals("write.lock")
        || base.startsWith("corrupted_");
  }

  private Directory storeOf(String name) {
    return isFileResident(name) ? fileSystem : pool;
  }

  @Override
  public String[] listAll() throws IOException {
    Set<String> names = new TreeSet<>(List.of(fileSystem.listAll()));
    names.addAll(List.of(pool.listAll()));
    return names.toArray(String[]::new);
  }

  @Override
  public void deleteFile(String name) throws IOException {
    storeOf(name).deleteFile(name);
  }

  @Override
  public long fileLength(String name) throws IOException {
    return storeOf(name).fileLength(name);
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    if (isFileResident(name)) {
      return fileSystem.createOutput(name, context);
    }
    return poolFull.watch(() -> pool.createOutput(name, context));
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
      throws IOException {
    return poolFull.watch(() -> pool.createTempOutput(prefix, suffix, context));
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    List<String> files = new ArrayList<>();
    List<String> pooled = new ArrayList<>();
    for (String name : names) {
      (isFileResident(name) ? files : pooled).add(name);
    }
    pool.sync(pooled);
    fileSystem.sync(files);
  }

  @Override
  public void syncMetaData() throws IOException {
    pool.syncMetaData();
    fileSystem.syncMetaData();
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    if (isFileResident(source) != isFileResident(dest)) {
      throw new AtomicMoveNotSupportedException(
          source, dest, "one name belongs in the NVM pool and the other on the file system");
    }
    storeOf(source).rename(source, dest);
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    return storeOf(name).openInput(name, context);
  }

  @Override
  public Lock obtainLock(String name) throws IOException {
    return fileSystem.obtainLock(name);
  }

  @Override
  public Set<String> getPendingDeletions() throws IOException {
    Set<String> pending = new TreeSet<>(fileSystem.getPendingDeletions());
    pending.addAll(pool.getPendingDeletions());
    return pending;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(pool, heap::close, fileSystem);
  }

  @Override
  public String toString() {
    return "NvmShardDirectory(files=" + fileSystem.getDirectory() + ", pool=" + heap.path() + ")";
  }
}
