package org.lucenenvm.realtime;

import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;

/**
 * {@link StatisticsMode#PER_EPOCH}: adds to the live tail leave every score unchanged until the set
 * of Lucene segments changes, a term only the tail holds still scores (clamped statistics), a
 * snapshot whose epoch is empty or outweighed by its tail scores with exact statistics, and
 * {@link StatisticsMode#PER_QUERY} keeps Lucene's behaviour (each add moves the scores).
 */
public class EpochStatisticsTest extends LuceneTestCase {
  private static final int SEGMENT = 100;

  private static RtEngineConfig config(StatisticsMode mode) {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withSegmentSize(SEGMENT)
        .withStatistics(mode);
  }

  private static float scoreOf(RtEngine engine, String word, String id) throws Exception {
    for (RtHit hit : engine.search(RtSearchRequest.of(new TermQuery(new Term("body", word)), 1000)).hits()) {
      if (hit.id().equals(id)) {
        return hit.score();
      }
    }
    throw new AssertionError(id + " not found for " + word);
  }

  private static void fill(RtEngine engine, int from, int to) {
    for (int i = from; i < to; i++) {
      engine.add(new RtDocument("d" + i, Map.of("body", "alpha beta" + (i % 3 == 0 ? " alpha" : ""))));
    }
  }

  public void testScoresHoldWithinAnEpoch() throws Exception {
    try (Directory dir = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(dir, config(StatisticsMode.PER_EPOCH))) {
      fill(engine, 0, SEGMENT);
      PipelineWaits.luceneSegments(engine, 1);
      float before = scoreOf(engine, "alpha", "d0");
      engine.add(new RtDocument("tail", Map.of("body", "alpha alpha alpha gamma")));
      fill(engine, SEGMENT + 1, SEGMENT + 50); // still the same live segment: same epoch
      assertEquals(before, scoreOf(engine, "alpha", "d0"), 0f);
      float gamma = scoreOf(engine, "gamma", "tail"); // only the tail holds it: clamped, df = 1
      assertTrue(gamma > 0 && Float.isFinite(gamma));
      fill(engine, SEGMENT + 50, 2 * SEGMENT + 10);
      PipelineWaits.luceneSegments(engine, 2); // a flush ends the epoch
      assertTrue(before != scoreOf(engine, "alpha", "d0"));
    }
  }

  public void testALagKeepsTheEpochAcrossFlushes() throws Exception {
    try (Directory dir = new ByteBuffersDirectory();
        RtEngine engine =
            RtEngine.open(
                dir, config(StatisticsMode.PER_EPOCH).withStatisticsLagSegments(1))) {
      fill(engine, 0, SEGMENT);
      PipelineWaits.luceneSegments(engine, 1);
      float before = scoreOf(engine, "alpha", "d0");
      fill(engine, SEGMENT, 2 * SEGMENT);
      PipelineWaits.luceneSegments(engine, 2); // one segment left out: the same epoch
      assertEquals(before, scoreOf(engine, "alpha", "d0"), 0f);
      fill(engine, 2 * SEGMENT, 3 * SEGMENT);
      PipelineWaits.luceneSegments(engine, 3); // two left out: the epoch advances
      assertTrue(before != scoreOf(engine, "alpha", "d0"));
    }
  }

  /**
   * Epoch statistics score only a snapshot whose epoch has a segment and holds at least as many
   * documents as the tail; otherwise the snapshot scores exactly as Lucene would over its leaves,
   * and a keyable query bypasses the cache.
   */
  public void testExactStatisticsUnlessTheEpochOutweighsTheTail() throws Exception {
    RtEngineConfig config =
        config(StatisticsMode.PER_EPOCH)
            .withStatisticsLagSegments(1)
            .withResultCache(
                ResultCacheSettings.of(
                    ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.GDSF, 0));
    Query alpha = new TermQuery(new Term("body", "alpha"));
    try (Directory dir = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(dir, config)) {
      fill(engine, 0, SEGMENT / 2);
      assertStatistics(engine, alpha, StatisticsMode.PER_QUERY, "no segment yet");
      fill(engine, SEGMENT / 2, SEGMENT);
      PipelineWaits.luceneSegments(engine, 1);
      assertStatistics(engine, alpha, StatisticsMode.PER_EPOCH, "an epoch, no tail");
      fill(engine, SEGMENT, 2 * SEGMENT);
      PipelineWaits.luceneSegments(engine, 2);
      assertStatistics(engine, alpha, StatisticsMode.PER_EPOCH, "a tail as large as the epoch");
      fill(engine, 2 * SEGMENT, 2 * SEGMENT + 1);
      assertStatistics(engine, alpha, StatisticsMode.PER_QUERY, "a tail larger than the epoch");
    }
  }

  /**
   * Checks that a snapshot of {@code engine} scores with {@code expected} statistics, that its
   * answer to {@code q} says so and used the cache only with epoch statistics, and that exact
   * statistics score as a plain Lucene searcher over the same leaves.
   */
  private static void assertStatistics(
      RtEngine engine, Query q, StatisticsMode expected, String why) throws Exception {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      assertEquals(why, expected, snapshot.statistics());
      RtSearchResult result = snapshot.search(RtSearchRequest.of(q, 1000));
      assertEquals(why, expected, result.statistics());
      boolean exact = expected == StatisticsMode.PER_QUERY;
      assertEquals(why, exact, result.cache() == CacheOutcome.BYPASSED);
      if (exact) {
        TopDocs lucene = new IndexSearcher(snapshot.reader()).search(q, 1000);
        assertEquals(why, lucene.scoreDocs.length, result.hits().size());
        for (int i = 0; i < lucene.scoreDocs.length; i++) {
          assertEquals(why, lucene.scoreDocs[i].score, result.hits().get(i).score(), 0f);
        }
      }
    }
  }

  public void testPerQueryStatisticsMoveWithEveryAdd() throws Exception {
    try (Directory dir = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(dir, config(StatisticsMode.PER_QUERY))) {
      fill(engine, 0, SEGMENT);
      PipelineWaits.luceneSegments(engine, 1);
      float before = scoreOf(engine, "alpha", "d0");
      engine.add(new RtDocument("tail", Map.of("body", "alpha alpha alpha gamma")));
      assertTrue(before != scoreOf(engine, "alpha", "d0"));
    }
  }
}
