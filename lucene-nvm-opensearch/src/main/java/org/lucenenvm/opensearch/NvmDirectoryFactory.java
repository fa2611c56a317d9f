package org.lucenenvm.opensearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockFactory;
import org.apache.lucene.store.NIOFSDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolBackend;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.shard.ShardPath;
import org.opensearch.index.store.FsDirectoryFactory;
import org.opensearch.plugins.IndexStorePlugin;

/**
 * Opens a shard's {@link NvmShardDirectory}: the shard's {@code index/} folder for the files
 * OpenSearch reads directly, and the pool at {@link NvmStoreSettings#POOL_PATH} under the shard's
 * data directory for everything else. A pool smaller than {@link NvmStoreSettings#POOL_SIZE} (the
 * setting was raised on the closed index) grows in place as it opens (see {@link NvmHeap#open(Path,
 * long, NvmHeap.OpenMode, PoolBackend)}: the file is extended, the header switches size
 * crash-consistently, nothing is copied).
 */
public final class NvmDirectoryFactory implements IndexStorePlugin.DirectoryFactory {
  private final FsDirectoryFactory plainFiles = new FsDirectoryFactory();

  @Override
  public Directory newDirectory(IndexSettings indexSettings, ShardPath shardPath) throws IOException {
    Path indexFolder = shardPath.resolveIndex();
    Files.createDirectories(indexFolder);
    LockFactory lockFactory = indexSettings.getValue(FsDirectoryFactory.INDEX_LOCK_FACTOR_SETTING);
    FSDirectory files = new NIOFSDirectory(indexFolder, lockFactory);
    try {
      Path poolFile = shardPath.getDataPath().resolve(indexSettings.getValue(NvmStoreSettings.POOL_PATH));
      Files.createDirectories(poolFile.getParent());
      long size = indexSettings.getValue(NvmStoreSettings.POOL_SIZE).getBytes();
      PoolBackend backend = NvmStoreSettings.backend(indexSettings.getValue(NvmStoreSettings.POOL_BACKEND));
      NvmHeap heap = NvmHeap.open(poolFile, size, NvmHeap.OpenMode.CREATE_OR_OPEN, backend);
      try {
        String where =
            "[" + indexSettings.getIndex().getName() + "][" + shardPath.getShardId().id() + "] on node ["
                + indexSettings.getNodeSettings().get("node.name", "?") + "]";
        String sizeSetting = indexSettings.getSettings().get(NvmStoreSettings.POOL_SIZE.getKey(), size + "b");
        return new NvmShardDirectory(files, heap, new PoolFullReporter(where, sizeSetting));
      } catch (Throwable t) {
        heap.close();
        throw t;
      }
    } catch (Throwable t) {
      files.close();
      throw t;
    }
  }

  /** Plain file-system directories (used by OpenSearch for folders other than a shard's index). */
  @Override
  public Directory newFSDirectory(Path location, LockFactory lockFactory, IndexSettings indexSettings)
      throws IOException {
    return plainFiles.newFSDirectory(location, lockFactory, indexSettings);
  }
}
