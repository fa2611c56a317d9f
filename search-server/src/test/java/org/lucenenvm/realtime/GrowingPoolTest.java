package org.lucenenvm.realtime;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.SuppressSysoutChecks;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolGrowth;
import org.lucenenvm.store.PoolPaths;

/**
 * An engine over a pool that grows while it serves: the flood stage and the room promised to
 * engraves and merges count what the pool can still grow by, so ingestion goes past the pool's
 * initial size without a refused write or a deferred merge; once the pool is at its maximum the
 * flood stage refuses writes as over a pool that does not grow.
 */
@SuppressSysoutChecks(bugUrl = "PoolGrower logs each growth of a pool at INFO")
public class GrowingPoolTest extends LuceneTestCase {
  private static final long POOL_BYTES = 16L << 20;

  /**
   * Growth by 1 MiB steps only when an allocation finds no room (no watermark), so the pool has
   * little free room: without counting the room growth can provide, merges larger than that would
   * be deferred.
   */
  private static PoolGrowth growthUpTo(long maxBytes) {
    return new PoolGrowth(maxBytes, 1L << 20, 0, 0);
  }

  public void testIngestionGrowsThePoolWithoutRefusalsOrDeferredMerges() throws Exception {
    Random random = new Random(random().nextLong());
    Path dir = PoolPaths.imageDir(createTempDir("growing-pool"));
    // A flood stage at half the pool: without counting the room growth can provide, adds would be
    // refused once half the initial pool is used.
    try (NvmDirectory nvm = NvmDirectory.open(dir.resolve("growing.pool"), POOL_BYTES, growthUpTo(8 * POOL_BYTES));
        RtEngine engine = RtEngine.open(nvm, FullPoolTest.config(0.5))) {
      int added = 0;
      while (engine.poolUsage().usedBytes() < 2 * POOL_BYTES) {
        assertTrue("the pool never filled past twice its initial size: " + engine.poolUsage(), added < 100_000);
        engine.add(FullPoolTest.doc(random, "d" + added)); // a FloodStageException fails the test
        added++;
      }
      assertTrue("grew: " + nvm.heap(), nvm.heap().size() > 2 * POOL_BYTES);
      assertFalse(engine.poolUsage().describe(), engine.poolUsage().refusesWrites());
      assertEquals("no merge deferred for want of room", 0, engine.stats().mergesDeferred());
      assertEquals(added, engine.count(MatchAllDocsQuery.INSTANCE));
    } finally {
      PoolPaths.deleteImages(dir);
    }
  }

  public void testFloodStageAtTheMaximumSize() throws Exception {
    Random random = new Random(random().nextLong());
    Path dir = PoolPaths.imageDir(createTempDir("growing-pool"));
    long max = 2 * POOL_BYTES;
    try (NvmDirectory nvm = NvmDirectory.open(dir.resolve("capped.pool"), POOL_BYTES, growthUpTo(max));
        RtEngine engine = RtEngine.open(nvm, FullPoolTest.config(RtEngineConfig.DEFAULT_FLOOD_STAGE))) {
      FloodStageException refused = null;
      int added = 0;
      for (int i = 0; refused == null || !FullPoolTest.refusedSteadily(engine); i++) {
        assertTrue("the pool never refused an add", i < 200_000);
        try {
          engine.add(FullPoolTest.doc(random, "d" + i));
          added++;
          refused = null;
        } catch (FloodStageException e) {
          refused = e;
        }
      }
      NvmUsage usage = refused.usage();
      assertEquals(max, nvm.heap().size());
      assertEquals(max, usage.totalBytes());
      assertEquals("at its maximum the pool cannot grow", 0, usage.growableBytes());
      assertTrue(refused.getMessage(), usage.floodStageReached());
      assertTrue(usage.usedBytes() >= RtEngineConfig.DEFAULT_FLOOD_STAGE * max);
      assertTrue(
          refused.getMessage(),
          refused.getMessage().contains(String.format(Locale.ROOT, "of %,d bytes used", max)));
      assertEquals(added, engine.count(MatchAllDocsQuery.INSTANCE));
    } finally {
      PoolPaths.deleteImages(dir);
    }
  }
}
