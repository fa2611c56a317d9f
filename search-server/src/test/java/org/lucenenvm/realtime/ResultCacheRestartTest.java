package org.lucenenvm.realtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.lucene.search.Query;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.realtime.CrashConsistentEngine.Acknowledged;
import org.lucenenvm.realtime.CrashConsistentEngine.Snapshot;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * The NVM tier across restarts: after a graceful close the cache answers the queries it answered
 * before (the close's flush of the live tail does not end the statistics epoch of its entries),
 * and an entry whose segments were merged away, or whose hit was deleted, while the cache was not
 * open is never served; after a crash of a crash-consistent engine it serves nothing stale and
 * stays warm for the segments the crash left.
 */
public class ResultCacheRestartTest extends LuceneTestCase {
  static final int SEGMENT = 100;
  private static final long POOL = 64L << 20;

  private static RtEngineConfig config(CachePolicy.Kind policy) {
    return config(policy, 1);
  }

  private static RtEngineConfig config(CachePolicy.Kind policy, int partitions) {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withSegmentSize(SEGMENT)
        .withPartitions(partitions)
        .withMode(DurabilityMode.GRACEFUL)
        .withResultCache(
            ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 20, policy, 0));
  }

  public void testWarmAfterGracefulRestart() throws Exception {
    Random r = new Random(random().nextLong());
    Path pool = PoolPaths.poolIn(createTempDir("pool"));
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 30);
    CachePolicy.Kind policy = r.nextBoolean() ? CachePolicy.Kind.LRU : CachePolicy.Kind.DLIRS;
    int partitions = 1 + r.nextInt(2);
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config(policy, partitions))) {
      for (int i = 0; i < 3 * SEGMENT + 50; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.flushed(engine, 3 * SEGMENT + 50, SEGMENT);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      assertTrue(engine.cacheStats().entries() > 0);
    }
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config(policy, partitions))) {
      ResultCacheStats reopened = engine.cacheStats();
      assertTrue("cache cold after a graceful restart: " + reopened, reopened.entries() > 0);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      ResultCacheStats after = engine.cacheStats();
      assertEquals("a miss after restart: " + after, 0, after.misses());
      assertTrue("no hit after restart: " + after, after.hits() > 0);
      // a delete of a cached hit, then the same queries: never the deleted document
      RtSearchResult top = engine.search(RtSearchRequest.of(queries.getFirst(), 10));
      if (!top.hits().isEmpty()) {
        assertTrue(engine.delete(top.hits().getFirst().id()));
      }
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
    }
  }

  /**
   * What "one segment behind" after a restart means, pinned down: the reopened engine restores the
   * epoch of the close, so the segment the close flushed (the live tail of before) is searched as
   * tail and every entry computed on the last epoch is reused, also across a second restart with
   * nothing ingested in between; the next flush after the restart advances the epoch to every
   * segment, after which entries are recomputed once and hit again.
   */
  public void testRestoredEpochLeavesTheCloseFlushOutUntilTheNextFlush() throws Exception {
    Random r = new Random(random().nextLong());
    Path pool = PoolPaths.poolIn(createTempDir("pool"));
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 20);
    RtEngineConfig config = config(CachePolicy.Kind.GDSF);
    List<Long> epochAtClose;
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config)) {
      for (int i = 0; i < 2 * SEGMENT + 50; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.flushed(engine, 2 * SEGMENT + 50, SEGMENT);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      epochAtClose = epochIds(engine);
      assertEquals(2, epochAtClose.size());
    }
    for (int restart = 0; restart < 2; restart++) {
      try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
          RtEngine engine = RtEngine.open(nvm, config)) {
        assertEquals("restart " + restart, epochAtClose, epochIds(engine));
        try (RtSnapshot snapshot = engine.acquireSnapshot()) {
          assertEquals("the close's flush is tail", 1, snapshot.tailLeaves().length);
        }
        for (Query q : queries) {
          ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
        }
        ResultCacheStats after = engine.cacheStats();
        assertEquals("restart " + restart + ": " + after, 0, after.misses());
        assertTrue("restart " + restart + ": " + after, after.hits() > 0);
      }
    }
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config)) {
      for (int i = 2 * SEGMENT + 50; i < 3 * SEGMENT + 50; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.luceneSegments(engine, 4);
      List<Long> advanced = epochIds(engine);
      assertEquals("the next flush takes the close's segment in: " + advanced, 4, advanced.size());
      assertTrue(advanced.containsAll(epochAtClose));
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      ResultCacheStats recomputed = engine.cacheStats();
      assertTrue("entries of the old epoch reused: " + recomputed, recomputed.misses() > 0);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      assertEquals(
          "second pass over the new epoch misses: " + engine.cacheStats(),
          recomputed.misses(),
          engine.cacheStats().misses());
    }
  }

  private static List<Long> epochIds(RtEngine engine) throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      return snapshot.segments().stream().map(RtSnapshot.SnapshotSegment::id).toList();
    }
  }

  private static RtEngineConfig crashConsistent(CachePolicy.Kind policy) {
    return CrashConsistentEngine.config()
        .withResultCache(ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 20, policy, 0));
  }

  /**
   * Crash images taken while adds, updates and deletes run and the pipeline flushes, engraves and
   * merges: the recovered engine holds the acknowledged documents, and every answer it gives
   * through the cache equals its uncached answer (entries computed over segments the crash lost,
   * or over deletions it did not keep, are never served).
   */
  public void testCrashRecoveryServesNothingStale() throws Exception {
    Random r = new Random(random().nextLong());
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 30);
    RtEngineConfig config = crashConsistent(randomPolicy(r));
    Acknowledged acked = new Acknowledged();
    long keptAtOpen = 0;
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"));
        RtEngine engine = RtEngine.open(pool.nvm, config)) {
      for (int round = 0; round < 6; round++) {
        for (int i = 0; i < 90; i++) {
          acked.run(engine, CrashConsistentEngine.randomOp(r, acked.state(), round * 1000 + i));
        }
        for (Query q : queries) {
          ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
        }
        Snapshot expected = acked.snapshot();
        boolean keep = r.nextBoolean();
        try (NvmDirectory recovered = CrashImagePool.openImage(pool.crash(keep));
            RtEngine reopened = RtEngine.open(recovered, config)) {
          String where = "round " + round + ", unpersisted kept: " + keep;
          keptAtOpen += reopened.cacheStats().entries();
          expected.assertHeldBy(reopened, where);
          for (int pass = 0; pass < 2; pass++) {
            for (Query q : queries) {
              ResultCacheDifferentialTest.assertSameAnswer(reopened, q, 10);
            }
          }
        }
      }
    }
    assertTrue("no crash image kept an entry: the check above never ran on one", keptAtOpen > 0);
  }

  /**
   * A crash after the pipeline settled (every full segment engraved and recorded in the manifest):
   * the recovered engine answers every query it had cached from the cache, without a miss.
   */
  public void testWarmAfterCrashOfSettledEngine() throws Exception {
    Random r = new Random(random().nextLong());
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 30);
    RtEngineConfig config = crashConsistent(randomPolicy(r));
    Acknowledged acked = new Acknowledged();
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"));
        RtEngine engine = RtEngine.open(pool.nvm, config)) {
      for (int i = 0; i < 300; i++) {
        acked.run(engine, CrashConsistentEngine.randomOp(r, acked.state(), i));
      }
      PipelineWaits.durable(engine);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      assertTrue(engine.cacheStats().entries() > 0);
      try (NvmDirectory recovered = CrashImagePool.openImage(pool.crash(r.nextBoolean()));
          RtEngine reopened = RtEngine.open(recovered, config)) {
        acked.snapshot().assertHeldBy(reopened, "after the crash");
        assertTrue("cache cold after a crash: " + reopened.cacheStats(), reopened.cacheStats().entries() > 0);
        for (Query q : queries) {
          ResultCacheDifferentialTest.assertSameAnswer(reopened, q, 10);
        }
        ResultCacheStats after = reopened.cacheStats();
        assertEquals("a miss after the crash: " + after, 0, after.misses());
        assertTrue("no hit after the crash: " + after, after.hits() > 0);
      }
    }
  }

  private static CachePolicy.Kind randomPolicy(Random r) {
    CachePolicy.Kind[] kinds = CachePolicy.Kind.values();
    return kinds[r.nextInt(kinds.length)];
  }

  public void testEntriesOfMergedSegmentsAreDroppedOnOpen() throws Exception {
    Random r = new Random(random().nextLong());
    Path pool = PoolPaths.poolIn(createTempDir("pool"));
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 30);
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config(CachePolicy.Kind.LRU))) {
      for (int i = 0; i < 3 * SEGMENT; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.flushed(engine, 3 * SEGMENT, SEGMENT);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      assertTrue(engine.cacheStats().entries() > 0);
    }
    // opened without the cache: merges and deletes the cache does not see
    RtEngineConfig noCache =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withSegmentSize(SEGMENT)
            .withMode(DurabilityMode.GRACEFUL)
            .withMergeFactor(2)
            .withMaxSegments(3);
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, noCache)) {
      for (int i = 3 * SEGMENT; i < 6 * SEGMENT; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      for (int i = 0; i < 3 * SEGMENT; i += 7) {
        assertTrue(engine.delete("doc" + i));
      }
    }
    try (NvmDirectory nvm = NvmDirectory.open(pool, POOL);
        RtEngine engine = RtEngine.open(nvm, config(CachePolicy.Kind.LRU))) {
      assertEquals("stale entries kept: " + engine.cacheStats(), 0, engine.cacheStats().entries());
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
    }
  }
}
