package org.lucenenvm.opensearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolPaths;

/** Lucene's directory conformance suite on the split (files + pool) shard directory. */
public class TestNvmShardDirectory extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    Path files = Files.createDirectories(path.resolve("index"));
    NvmHeap heap = NvmHeap.open(PoolPaths.poolIn(path.resolve("nvm")), 64L << 20);
    return new NvmShardDirectory(new NIOFSDirectory(files), heap, new PoolFullReporter("[test][0] on node [n]", "64mb"));
  }

  public void testPlacement() {
    for (String name : new String[] {"segments_4", "pending_segments_5", "_0.si", "write.lock", "corrupted_x1",
        "recovery.AbC-d_9.segments_3", "recovery.AbC-d_9._2.si"}) {
      assertTrue(name, NvmShardDirectory.isFileResident(name));
    }
    for (String name : new String[] {"_0.cfs", "_0.cfe", "_1_NvmUncompressed_0.nvdoc", "_0.fdt", "recovery.AbC-d_9._0.cfs", "_0_Lucene90_0.tmp"}) {
      assertFalse(name, NvmShardDirectory.isFileResident(name));
    }
  }
}
