package org.lucenenvm.store;

import java.lang.foreign.ValueLayout;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Regions: durable single-extent files of an {@link NvmDirectory} updated in place. */
public class TestNvmRegion extends LuceneTestCase {
  private static final long POOL = 2L * 1024 * 1024;

  public void testInPlaceUpdatesSurviveReopen() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("region"));
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
        NvmRegion region = dir.createRegion("log", 10_000)) {
      assertEquals(10_000, region.length());
      assertEquals(0L, region.segment().get(ValueLayout.JAVA_LONG, 8));
      region.segment().set(ValueLayout.JAVA_LONG, 8, 42L);
      region.persist(8, 8);
      assertEquals(10_000, dir.fileLength("log"));
      expectThrows(FileAlreadyExistsException.class, () -> dir.createRegion("log", 100));
      expectThrows(IndexOutOfBoundsException.class, () -> region.persist(9_999, 2));
    }
    try (NvmDirectory dir = NvmDirectory.open(pool, 0);
        NvmRegion region = dir.openRegion("log")) {
      assertEquals(42L, region.segment().get(ValueLayout.JAVA_LONG, 8));
      assertTrue(region.toString(), region.toString().contains(pool.toString()));
    }
  }

  public void testDeletedWhileOpenKeepsItsExtentUntilClosed() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(PoolPaths.poolIn(createTempDir("region")), POOL)) {
      NvmRegion region = dir.createRegion("log", 64 * 1024);
      dir.deleteFile("log");
      region.segment().set(ValueLayout.JAVA_LONG, 0, 7L); // still ours
      long freeWhileOpen = dir.freeBytes();
      region.close();
      assertEquals(freeWhileOpen + 64 * 1024, dir.freeBytes());
    }
  }

  public void testOnlyRegionsOpenAsRegions() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(PoolPaths.poolIn(createTempDir("region")), POOL)) {
      try (IndexOutput out = dir.createOutput("unsynced", IOContext.DEFAULT)) {
        out.writeLong(1);
      }
      expectThrows(java.io.IOException.class, () -> dir.openRegion("unsynced"));
      dir.sync(List.of("unsynced"));
      dir.openRegion("unsynced").close(); // one extent and synced: usable as a region
      expectThrows(java.nio.file.NoSuchFileException.class, () -> dir.openRegion("missing"));
      expectThrows(PoolFullException.class, () -> dir.createRegion("huge", 4 * POOL));
      expectThrows(IllegalArgumentException.class, () -> dir.createRegion("empty", 0));
      assertFalse(java.util.Arrays.asList(dir.listAll()).contains("huge"));
    }
  }
}
