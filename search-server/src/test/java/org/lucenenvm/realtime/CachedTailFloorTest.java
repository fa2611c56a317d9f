package org.lucenenvm.realtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.QueryKeys;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.TailResult;

/**
 * When the epoch part of a cached answer holds k hits of more matches than are counted exactly,
 * the tail is searched only above its k-th score ({@link TailSearch}): misses and hits of a
 * word in every document still answer exactly as an uncached search (documents, order, scores;
 * a total that is a lower bound, as the uncached one is), also after the epoch's best hit is
 * deleted; queries with an exact epoch total keep an exact, equal total and search the tail whole.
 */
public class CachedTailFloorTest extends LuceneTestCase {
  /** Three segments (the epoch) hold more than the exactly counted 1,000 hits. */
  private static final int SEGMENT = 600;

  private static final String EVERYWHERE = "common";

  public void testTailAboveTheEpochsKthScoreAnswersAsUncached() throws Exception {
    Random r = new Random(random().nextLong());
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    Query everywhere = parser.parse(EVERYWHERE);
    Query disjunction = parser.parse(EVERYWHERE + " w1");
    Query rare = parser.parse("+" + EVERYWHERE + " +w5");
    List<Query> queries = List.of(everywhere, disjunction, rare);
    try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, config())) {
      int docs = 0;
      for (; docs < 3 * SEGMENT; docs++) {
        engine.add(document(r, docs));
      }
      // the epoch: all three (the second stayed outside it, the third advanced it), so that it
      // outweighs the tail below and the snapshots score with its statistics
      PipelineWaits.luceneSegments(engine, 3);
      for (Query q : queries) {
        assertEquals(q.toString(), CacheOutcome.MISS, assertSameAnswer(engine, q, true));
      }
      for (; docs < 4 * SEGMENT + 60; docs++) { // a flushed segment outside the epoch, live docs
        engine.add(document(r, docs));
      }
      PipelineWaits.luceneSegments(engine, 4);
      for (Query q : queries) {
        assertEquals(q.toString(), CacheOutcome.HIT, assertSameAnswer(engine, q, true));
      }
      assertTrue("not floored: " + tail(engine, everywhere), tail(engine, everywhere).floor() > 0);
      assertEquals("an exact epoch total", 0f, tail(engine, rare).floor(), 0f);

      for (int i = 0; i < 20; i++, docs++) { // hits resume above the floor
        engine.add(document(r, docs));
        assertEquals(CacheOutcome.HIT, assertSameAnswer(engine, everywhere, true));
      }
      assertTrue(engine.cacheStats().tailResumes() > 0);

      String epochHit = // an epoch hit deleted: its entry is invalid, the next search a miss
          engine.search(RtSearchRequest.of(everywhere, 10).withCache(false)).hits().stream()
              .map(RtHit::id)
              .filter(id -> Integer.parseInt(id.substring("doc".length())) < SEGMENT)
              .findFirst()
              .orElseThrow();
      assertTrue(engine.delete(epochHit));
      assertEquals(CacheOutcome.MISS, assertSameAnswer(engine, everywhere, false));
      for (Query q : queries) {
        assertSameAnswer(engine, q, false);
      }
      assertEquals(CacheOutcome.HIT, assertSameAnswer(engine, everywhere, false));
    }
  }

  private static RtEngineConfig config() {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withSegmentSize(SEGMENT)
        .withMergeFactor(10)
        .withStatisticsLagSegments(1) // the next flushed segment stays outside the epoch
        .withResultCache(
            ResultCacheSettings.of(
                ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.LRU, 0));
  }

  /** A random document whose body holds {@link #EVERYWHERE} one to four times. */
  private static RtDocument document(Random r, int i) {
    RtDocument doc = TestCorpus.randomDocument(r, "doc" + i);
    Map<String, String> fields = new LinkedHashMap<>(doc.fields());
    String words = (EVERYWHERE + " ").repeat(1 + r.nextInt(4));
    fields.merge("body", words, (body, word) -> word + body);
    return new RtDocument(doc.id(), fields);
  }

  private static TailResult tail(RtEngine engine, Query q) {
    return engine.cachedSearch().cache().tail(QueryKeys.of(q).orElseThrow());
  }

  /**
   * The cache's outcome of {@code q}, after checking its answer against the uncached one: the same
   * hits; the same exact total where the uncached one is exact and {@code exactTotals} (no entry
   * has seen a deletion in its segments since it was computed, which makes its total a lower
   * bound), else a lower bound of the matches.
   */
  private static CacheOutcome assertSameAnswer(RtEngine engine, Query q, boolean exactTotals)
      throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      RtSearchResult cached = snapshot.search(RtSearchRequest.of(q, 10));
      RtSearchResult uncached = snapshot.search(RtSearchRequest.of(q, 10).withCache(false));
      assertEquals(
          q.toString(),
          RtSearchResults.idsAndScores(uncached),
          RtSearchResults.idsAndScores(cached));
      if (exactTotals && uncached.totalHits().relation() == TotalHits.Relation.EQUAL_TO) {
        assertEquals(q.toString(), uncached.totalHits(), cached.totalHits());
      } else if (cached.totalHits().relation() == TotalHits.Relation.EQUAL_TO) {
        assertEquals(q.toString(), engine.count(q), cached.totalHits().value());
      } else {
        assertTrue(q.toString(), cached.totalHits().value() <= engine.count(q));
      }
      return cached.cache();
    }
  }
}
