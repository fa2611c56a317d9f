package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.QueryKeys;
import org.lucenenvm.cache.ResultCacheSettings;

/**
 * A cache hit searches only the tail, with a weight whose terms are looked up in the tail leaves
 * alone: its answer (documents, order, scores, total) equals an uncached search after documents
 * were added since its entry was computed, both in a flushed segment outside the statistics epoch
 * and in the live segment, for single terms (one of them only in the tail), conjunctions and
 * disjunctions, with and without a timeout; a hit resumes the tail search where the previous
 * one ended.
 */
public class CachedHitTailTest extends LuceneTestCase {
  private static final int SEGMENT = ResultCacheRestartTest.SEGMENT;
  /** A word of no document until the tail is written. */
  private static final String TAIL_ONLY = "zzonly";

  private static final List<String> QUERIES =
      List.of(
          "w1",
          "+w1 +w2",
          "w2 w3 w5",
          TAIL_ONLY,
          "+w1 +" + TAIL_ONLY,
          "w3 " + TAIL_ONLY,
          "title:w1 title:w4");

  public void testHitsEqualUncachedWithATail() throws Exception {
    Random r = new Random(random().nextLong());
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    List<Query> queries = parse(parser);
    try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
        // lag 1: the next flushed segment stays outside the epoch
        RtEngine engine = RtEngine.open(nvm, cachedConfig(1))) {
      // three flushes: the epoch is all three (the second stayed outside, the third advanced it),
      // so that it outweighs the tail below and the snapshots score with its statistics
      missAfterFlushes(engine, r, queries, 3);
      int docs = 4 * SEGMENT + 30; // one more flushed segment and 30 live documents
      for (int i = 3 * SEGMENT; i < docs; i++) {
        engine.add(withTailOnlyWord(TestCorpus.randomDocument(r, "doc" + i), i % 3 == 0));
      }
      PipelineWaits.flushed(engine, docs, SEGMENT);
      try (RtSnapshot snapshot = engine.acquireSnapshot()) {
        assertEquals("epoch segments", 3, snapshot.segments().size());
        assertEquals(StatisticsMode.PER_EPOCH, snapshot.statistics());
        assertEquals(
            "tail: the segment outside the epoch and the live one", 2, tailLeaves(snapshot));
      }
      for (Query q : queries) {
        assertEquals(q.toString(), CacheOutcome.HIT, search(engine, q, null));
        assertEquals(q.toString(), CacheOutcome.HIT, search(engine, q, () -> false));
      }
      assertTrue(engine.count(parser.parse(TAIL_ONLY)) > 0);
    }
  }

  /**
   * A hit resumes the tail search where the query's previous one ended: with documents added to
   * the live segment between hits every answer still equals the uncached one, and a deletion in
   * the live segment makes the next hit search the whole tail again (then resume after it).
   */
  public void testHitsResumeTheTailWhereTheLastEnded() throws Exception {
    Random r = new Random(random().nextLong());
    List<Query> queries = parse(new QueryParser("body", new StandardAnalyzer()));
    try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, cachedConfig(0))) {
      missAfterFlushes(engine, r, queries, 1); // the live segment stays below one segment
      int next = SEGMENT;
      while (next < SEGMENT + SEGMENT / 2) { // the live segment grows between hits
        for (int n = 1 + r.nextInt(3); n > 0; n--, next++) {
          engine.add(withTailOnlyWord(TestCorpus.randomDocument(r, "doc" + next), r.nextBoolean()));
        }
        Query q = queries.get(r.nextInt(queries.size()));
        assertEquals(q.toString(), CacheOutcome.HIT, search(engine, q, null));
      }
      long resumed = engine.cacheStats().tailResumes();
      assertTrue("no hit resumed its tail", resumed > 0);

      Query q = queries.get(0);
      search(engine, q, null);
      resumed = engine.cacheStats().tailResumes();
      assertTrue(engine.delete("doc" + (next - 1))); // a live document
      assertEquals(CacheOutcome.HIT, search(engine, q, null));
      assertEquals("a new deletion: the whole tail", resumed, engine.cacheStats().tailResumes());
      assertEquals(CacheOutcome.HIT, search(engine, q, null));
      assertEquals("resumed again", resumed + 1, engine.cacheStats().tailResumes());
    }
  }

  /**
   * The tail-only weight finds and scores exactly what the all-leaves weight finds in the tail,
   * with epoch statistics and (the cache never runs so) with per-query ones.
   */
  public void testTailWeightEqualsAllLeavesWeightOnTheTail() throws Exception {
    for (StatisticsMode mode : StatisticsMode.values()) {
      Random r = new Random(random().nextLong());
      RtEngineConfig config =
          RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
              .withSegmentSize(SEGMENT)
              .withMergeFactor(10)
              .withStatisticsLagSegments(1)
              .withStatistics(mode);
      QueryParser parser = new QueryParser("body", new StandardAnalyzer());
      try (ByteBuffersDirectory nvm = new ByteBuffersDirectory();
          RtEngine engine = RtEngine.open(nvm, config)) {
        for (int i = 0; i < SEGMENT; i++) {
          engine.add(TestCorpus.randomDocument(r, "doc" + i));
        }
        PipelineWaits.flushed(engine, SEGMENT, SEGMENT); // the epoch: this segment
        int docs = 2 * SEGMENT + 40;
        for (int i = SEGMENT; i < docs; i++) {
          engine.add(withTailOnlyWord(TestCorpus.randomDocument(r, "doc" + i), true));
        }
        PipelineWaits.flushed(engine, docs, SEGMENT);
        try (RtSnapshot snapshot = engine.acquireSnapshot()) {
          RtSnapshot.SnapshotSearcher s = snapshot.searcherFor(null);
          int[] tail = snapshot.tailLeaves();
          assertTrue(mode + ": no tail", tail.length > 0);
          if (mode == StatisticsMode.PER_EPOCH) {
            assertEquals(
                "a flushed segment outside the epoch and the live one", 2, tailLeaves(snapshot));
          }
          for (String text : QUERIES) {
            QueryKey key = QueryKeys.of(parser.parse(text)).orElseThrow();
            TopDocs all = s.searchLeaves(s.weightFor(QueryKeys.toQuery(key)), 20, tail);
            TopDocs tailOnly = s.searchLeaves(s.weightFor(key, tail), 20, tail);
            assertEquals(mode + " " + text, describe(all), describe(tailOnly));
            assertEquals(mode + " " + text, all.totalHits, tailOnly.totalHits);
          }
        }
      }
    }
  }

  /** Segments of {@link #SEGMENT} documents, a DRAM LRU cache, an epoch lagging {@code lag}. */
  private static RtEngineConfig cachedConfig(int lag) {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withSegmentSize(SEGMENT)
        .withMergeFactor(10)
        .withStatisticsLagSegments(lag)
        .withResultCache(
            ResultCacheSettings.of(
                ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.LRU, 0));
  }

  private static List<Query> parse(QueryParser parser) throws Exception {
    List<Query> queries = new ArrayList<>();
    for (String q : QUERIES) {
      queries.add(parser.parse(q));
    }
    return queries;
  }

  /**
   * {@code segments} flushed segments, then a first search of each query: a miss. Each segment is
   * flushed (and seen by a view, which {@link PipelineWaits} builds as it polls) before the next is
   * written, so that the epoch advances the same way on a slow machine as on a fast one: a view
   * that saw two new segments at once would start the epoch with both.
   */
  private static void missAfterFlushes(
      RtEngine engine, Random r, List<Query> queries, int segments) throws Exception {
    for (int s = 0; s < segments; s++) {
      for (int i = s * SEGMENT; i < (s + 1) * SEGMENT; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      PipelineWaits.flushed(engine, (s + 1) * SEGMENT, SEGMENT);
    }
    for (Query q : queries) {
      assertEquals(q.toString(), CacheOutcome.MISS, search(engine, q, null));
    }
  }

  /** The cache's outcome of {@code q}, after checking its answer against the uncached one. */
  private static CacheOutcome search(RtEngine engine, Query q, QueryTimeout timeout)
      throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      RtSearchResult cached = snapshot.search(RtSearchRequest.of(q, 10).withTimeout(timeout));
      RtSearchResult uncached = snapshot.search(RtSearchRequest.of(q, 10).withCache(false));
      assertEquals(
          q.toString(),
          RtSearchResults.idsAndScores(uncached),
          RtSearchResults.idsAndScores(cached));
      assertEquals(q.toString(), uncached.totalHits(), cached.totalHits());
      assertFalse(q.toString(), cached.timedOut());
      return cached.cache();
    }
  }

  private static int tailLeaves(RtSnapshot snapshot) {
    int withDocs = 0;
    for (int leaf : snapshot.tailLeaves()) {
      if (snapshot.reader().leaves().get(leaf).reader().maxDoc() > 0) {
        withDocs++;
      }
    }
    return withDocs;
  }

  private static RtDocument withTailOnlyWord(RtDocument doc, boolean add) {
    if (!add) {
      return doc;
    }
    Map<String, String> fields = new LinkedHashMap<>(doc.fields());
    fields.merge("body", TAIL_ONLY, (body, word) -> body + " " + word);
    return new RtDocument(doc.id(), fields);
  }

  private static List<String> describe(TopDocs top) {
    List<String> out = new ArrayList<>();
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(sd.doc + "=" + Float.floatToIntBits(sd.score));
    }
    return out;
  }
}
