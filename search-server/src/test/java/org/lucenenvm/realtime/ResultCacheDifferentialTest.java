package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * Random streams of adds, updates, deletes and repeated queries, with the pipeline flushing,
 * engraving and merging underneath: on the same snapshot, every answer through the result cache
 * equals the uncached answer (documents, order, scores; the total when both are exact), for LRU,
 * DLIRS and GDSF, the DRAM and NVM tiers, one and two partitions and statistics epochs that leave out
 * up to two flushed segments (searched with the tail), including caches small enough to evict,
 * with hits resuming their tail search where the query's last one ended.
 */
public class ResultCacheDifferentialTest extends LuceneTestCase {
  public void testCachedAnswersEqualUncached() throws Exception {
    long partialHits = 0;
    long tailResumes = 0;
    long smallCacheEvictions = 0;
    for (int run = 0; run < 5; run++) {
      Random r = new Random(random().nextLong());
      // LRU, DLIRS, GDSF, LRU, DLIRS: each policy with a cache small enough to evict
      CachePolicy.Kind policy = CachePolicy.Kind.values()[run % 3];
      long bytes = run < 2 ? 1L << 20 : 8192; // the small cache keeps evicting
      ResultCacheSettings.Tier tier =
          run >= 3 ? ResultCacheSettings.Tier.NVM : ResultCacheSettings.Tier.DRAM;
      RtEngineConfig config =
          RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
              .withSegmentSize(40 + r.nextInt(80))
              .withDramBudgetBytes(20_000 + r.nextInt(60_000))
              .withMergeFactor(2 + r.nextInt(3))
              .withPartitions(1 + run % 2)
              .withStatisticsLagSegments(run == 1 ? 0 : r.nextInt(3))
              .withResultCache(
                  ResultCacheSettings.of(tier, bytes, policy, 0));
      try (Directory nvm =
              tier == ResultCacheSettings.Tier.NVM
                  ? NvmDirectory.open(PoolPaths.poolIn(createTempDir("pool")), 64L << 20)
                  : new ByteBuffersDirectory();
          RtEngine engine = RtEngine.open(nvm, config)) {
        ResultCacheStats stats = runOps(r, engine, 2_500);
        partialHits += stats.partialHits();
        tailResumes += stats.tailResumes();
        assertTrue("no hit: " + stats, stats.hits() > 0);
        assertTrue("no miss: " + stats, stats.misses() > 0);
        assertTrue("nothing invalidated: " + stats, stats.invalidations() > 0);
        if (bytes == 8192) {
          // invalidations can keep a small cache below its capacity for a whole run; across the
          // three small-cache runs something must be evicted
          smallCacheEvictions += stats.evictions();
        }
      }
    }
    assertTrue("nothing evicted by the 8 KB caches", smallCacheEvictions > 0);
    assertTrue("no Partial Type I hit", partialHits > 0);
    assertTrue("no hit resumed its tail", tailResumes > 0);
  }

  public void testCacheNeedsEpochStatistics() {
    RtEngineConfig cached =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withResultCache(
                ResultCacheSettings.of(
                    ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.LRU, 0));
    assertEquals(StatisticsMode.PER_EPOCH, cached.statistics());
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class,
            () -> cached.withStatistics(StatisticsMode.PER_QUERY));
    assertTrue(e.getMessage(), e.getMessage().contains("PER_EPOCH"));
  }

  /** The repeated queries: keyable shapes (clauses in either order), and some that are not. */
  static List<Query> queryPool(Random r, int size) throws ParseException {
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    List<Query> pool = new ArrayList<>();
    while (pool.size() < size) {
      String a = TestCorpus.word(r);
      String b = TestCorpus.word(r);
      String c = TestCorpus.word(r);
      switch (r.nextInt(6)) {
        case 0 -> pool.add(parser.parse(a));
        case 1 -> {
          pool.add(parser.parse("+" + a + " +" + b));
          pool.add(parser.parse("+" + b + " +" + a));
        }
        case 2 -> {
          pool.add(parser.parse(a + " " + b + " " + c));
          pool.add(parser.parse(c + " " + a + " " + b));
          pool.add(parser.parse(b)); // Partial Type I candidate
        }
        case 3 -> pool.add(parser.parse("title:" + a + " title:" + b));
        case 4 -> pool.add(parser.parse("\"" + a + " " + b + "\"")); // not keyable
        default -> pool.add(parser.parse("+" + a + " -" + b)); // not keyable
      }
    }
    return pool;
  }

  static ResultCacheStats runOps(Random r, RtEngine engine, int ops) throws Exception {
    List<Query> pool = queryPool(r, 40);
    List<String> ids = new ArrayList<>();
    int nextId = 0;
    for (int op = 0; op < ops; op++) {
      int kind = r.nextInt(100);
      if (kind < 40 || ids.isEmpty()) {
        String id = "doc" + nextId++;
        engine.add(TestCorpus.randomDocument(r, id));
        ids.add(id);
      } else if (kind < 48) {
        engine.update(TestCorpus.randomDocument(r, ids.get(r.nextInt(ids.size()))));
      } else if (kind < 55) {
        assertTrue(engine.delete(ids.remove(r.nextInt(ids.size()))));
      } else {
        Query q = pool.get((int) (pool.size() * Math.pow(r.nextDouble(), 2)));
        assertSameAnswer(engine, q, 1 + r.nextInt(3) * 10);
      }
    }
    return engine.cacheStats();
  }

  /** Cached and uncached answers on one snapshot (the pipeline keeps changing the engine). */
  static void assertSameAnswer(RtEngine engine, Query q, int k) throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      RtSearchResult cached = snapshot.search(RtSearchRequest.of(q, k));
      RtSearchResult uncached = snapshot.search(RtSearchRequest.of(q, k).withCache(false));
      assertEquals(q + " k=" + k, describe(uncached), describe(cached));
      if (cached.totalHits().relation() == TotalHits.Relation.EQUAL_TO
          && uncached.totalHits().relation() == TotalHits.Relation.EQUAL_TO) {
        assertEquals(q.toString(), uncached.totalHits().value(), cached.totalHits().value());
      }
      assertTrue(q.toString(), cached.totalHits().value() <= uncached.totalHits().value()
          || uncached.totalHits().relation() == TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO);
    }
  }

  private static List<String> describe(RtSearchResult result) {
    List<String> hits = new ArrayList<>();
    for (RtHit hit : result.hits()) {
      hits.add(hit.id() + "=" + Float.floatToIntBits(hit.score()) + ":" + hit.fields());
    }
    return hits;
  }
}
