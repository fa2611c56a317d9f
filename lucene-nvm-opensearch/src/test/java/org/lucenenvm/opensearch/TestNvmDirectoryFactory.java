package org.lucenenvm.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.PoolPaths;
import org.opensearch.Version;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.shard.ShardPath;

/** A shard's pool is created at the configured size and grows in place when the size is raised. */
public class TestNvmDirectoryFactory extends LuceneTestCase {
  private static final String UUID = "growth-uuid";

  static {
    // OpenSearch 3.8.0's Version asserts that it runs on Lucene 10.5.0; these tests run on the
    // project's Lucene 10.5.1 (a node runs the plugin on its own Lucene). Set before the class loads.
    TestNvmDirectoryFactory.class.getClassLoader().setClassAssertionStatus("org.opensearch.Version", false);
  }

  private static IndexSettings indexSettings(String poolSize) {
    Settings settings =
        Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, Version.CURRENT)
            .put(IndexMetadata.SETTING_NUMBER_OF_SHARDS, 1)
            .put(IndexMetadata.SETTING_NUMBER_OF_REPLICAS, 0)
            .put(IndexMetadata.SETTING_INDEX_UUID, UUID)
            .put("index.store.type", NvmStoreSettings.STORE_TYPE)
            .put(NvmStoreSettings.POOL_SIZE.getKey(), poolSize)
            .build();
    Set<Setting<?>> known = new HashSet<>(IndexScopedSettings.BUILT_IN_INDEX_SETTINGS);
    known.addAll(NvmStoreSettings.ALL);
    return new IndexSettings(
        IndexMetadata.builder("idx").settings(settings).build(),
        Settings.EMPTY,
        new IndexScopedSettings(Settings.EMPTY, known));
  }

  public void testRaisedPoolSizeGrowsThePoolInPlaceKeepingItsFiles() throws Exception {
    Path shardDir = PoolPaths.poolIn(createTempDir("shard")).getParent().resolve(UUID).resolve("0");
    ShardPath shardPath = new ShardPath(false, shardDir, shardDir, new ShardId("idx", UUID, 0));
    Path poolFile = shardDir.resolve(NvmStoreSettings.POOL_PATH.getDefault(Settings.EMPTY));
    NvmDirectoryFactory factory = new NvmDirectoryFactory();
    byte[] content = new byte[50_000];
    random().nextBytes(content);
    try (Directory dir = factory.newDirectory(indexSettings("8mb"), shardPath)) {
      try (IndexOutput out = dir.createOutput("_0.cfs", IOContext.DEFAULT)) {
        out.writeBytes(content, content.length);
      }
      dir.sync(List.of("_0.cfs"));
    }
    assertEquals(8L << 20, Files.size(poolFile));
    Object inode = Files.getAttribute(poolFile, "unix:ino");

    try (Directory dir = factory.newDirectory(indexSettings("24mb"), shardPath)) {
      assertEquals(24L << 20, Files.size(poolFile));
      assertEquals("grown in place, not replaced by a copy", inode, Files.getAttribute(poolFile, "unix:ino"));
      try (IndexInput in = dir.openInput("_0.cfs", IOContext.READONCE)) {
        byte[] read = new byte[content.length];
        in.readBytes(read, 0, read.length);
        assertArrayEquals(content, read);
      }
      byte[] large = new byte[12 << 20]; // more than the old pool held
      try (IndexOutput out = dir.createOutput("_1.cfs", IOContext.DEFAULT)) {
        out.writeBytes(large, large.length);
      }
      dir.sync(List.of("_1.cfs"));
    }
    try (var files = Files.list(poolFile.getParent())) {
      assertEquals(List.of(poolFile), files.toList());
    }
  }
}
