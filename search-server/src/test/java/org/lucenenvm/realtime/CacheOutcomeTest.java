package org.lucenenvm.realtime;

import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;

/**
 * A search reports how the cache took part ({@link RtSearchResult#cache()}), and a disjunction's
 * entry holds its term parts (Partial Type I) only once its key missed a second time; every answer
 * equals the uncached one; {@link RtEngine#evictCached} drops one query's entry.
 */
public class CacheOutcomeTest extends LuceneTestCase {
  private static final int SEGMENT = ResultCacheRestartTest.SEGMENT;

  public void testOutcomesAndTermPartsFromTheSecondMiss() throws Exception {
    Random r = new Random(random().nextLong());
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withSegmentSize(SEGMENT)
            .withResultCache(
                ResultCacheSettings.of(
                    ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.LRU, 0));
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    Query or = parser.parse("w1 w2");
    Query single = parser.parse("w2");
    try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, config)) {
      for (int i = 0; i < 3 * SEGMENT; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.flushed(engine, 3 * SEGMENT, SEGMENT);
      assertTrue(
          "too few matches to need a larger k", engine.count(or) > 10 && engine.count(single) > 0);
      assertEquals(CacheOutcome.BYPASSED, search(engine, or, 10, false));
      assertEquals(CacheOutcome.MISS, search(engine, or, 10, true));
      assertEquals(CacheOutcome.HIT, search(engine, or, 10, true));
      assertEquals("first miss: no term parts", CacheOutcome.MISS, search(engine, single, 10, true));
      assertEquals("every miss counted, whatever its operator", 2, engine.cacheStats().misses());
      assertEquals(CacheOutcome.HIT, search(engine, single, 10, true));
      Query other = parser.parse("w1");
      // more hits than the entry holds: a second miss of the disjunction, now with its parts
      assertEquals(CacheOutcome.MISS, search(engine, or, 20, true));
      assertEquals(CacheOutcome.PARTIAL_HIT, search(engine, other, 20, true));
      assertEquals(1, engine.cacheStats().partialHits());

      long invalidations = engine.cacheStats().invalidations();
      assertTrue(engine.evictCached(single));
      assertFalse("already dropped", engine.evictCached(single));
      assertFalse("not keyable", engine.evictCached(parser.parse("w1*")));
      assertEquals(invalidations + 1, engine.cacheStats().invalidations());
      assertEquals("dropped: a partial hit from the disjunction's part", CacheOutcome.PARTIAL_HIT,
          search(engine, single, 10, true));
      assertTrue(engine.evictCached(or));
      assertEquals(CacheOutcome.MISS, search(engine, single, 10, true));
      assertEquals(CacheOutcome.HIT, search(engine, single, 10, true));
    }
    try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
        RtEngine uncached =
            RtEngine.open(nvm, RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA))) {
      assertFalse("no cache", uncached.evictCached(single));
    }
  }

  /** The cache's outcome of {@code q}, after checking its answer against the uncached one. */
  private static CacheOutcome search(RtEngine engine, Query q, int k, boolean useCache)
      throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      RtSearchResult answer = snapshot.search(RtSearchRequest.of(q, k).withCache(useCache));
      RtSearchResult uncached = snapshot.search(RtSearchRequest.of(q, k).withCache(false));
      assertEquals(
          q + " k=" + k,
          RtSearchResults.idsAndScores(uncached),
          RtSearchResults.idsAndScores(answer));
      assertEquals(CacheOutcome.BYPASSED, uncached.cache());
      return answer.cache();
    }
  }
}
