package org.lucenenvm.opensearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.NoLockFactory;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolBackend;

/**
 * Grows a pool whose file is smaller than the configured size: every file is copied into a new
 * pool of the new size beside it ({@code <pool>.grow}), which is synced and then atomically
 * renamed over the old one. A crash before the rename leaves the old pool as it was (the half-made
 * new one is deleted by the next attempt); after it, the new pool holds every file.
 */
final class PoolGrower {
  private PoolGrower() {}

  static void growIfSmaller(Path poolFile, long size, PoolBackend backend) throws IOException {
    Path grown = poolFile.resolveSibling(poolFile.getFileName() + ".grow");
    Files.deleteIfExists(grown);
    if (!Files.exists(poolFile) || Files.size(poolFile) >= size) {
      return;
    }
    try (NvmHeap oldHeap = NvmHeap.open(poolFile, 0, NvmHeap.OpenMode.OPEN, backend);
        NvmDirectory oldPool = new NvmDirectory(oldHeap, NoLockFactory.INSTANCE)) {
      if (oldHeap.size() >= size) {
        return;
      }
      try (NvmHeap newHeap = NvmHeap.open(grown, size, NvmHeap.OpenMode.FORMAT, backend);
          NvmDirectory newPool = new NvmDirectory(newHeap, NoLockFactory.INSTANCE)) {
        String[] names = oldPool.listAll();
        for (String name : names) {
          newPool.copyFrom(oldPool, name, name, IOContext.DEFAULT);
        }
        newPool.sync(List.of(names));
        newPool.syncMetaData();
      }
    }
    Files.move(grown, poolFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
