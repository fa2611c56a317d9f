package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * Randomized adds, updates, deletes and queries against two engines given the same operations,
 * one whose merges keep deleted documents masked (deleted share allowed: 100%) and one whose merges
 * drop them (0%). Both must always hold the same documents (numDocs) and match the same ones.
 *
 * <p>Scores: BM25's collection statistics (docCount, sumTotalTermFreq, docFreq) count deleted
 * documents, in Lucene and in both of the engine's {@link StatisticsMode}s, so a segment that
 * keeps masked documents scores differently from one that dropped them, as in Lucene, where a
 * segment's deletions count until a merge drops them. With BM25 the matches are compared exactly
 * and the scores not; with a BM25 that uses no collection statistics (idf 1, a fixed average field
 * length: a score depends on the document's own term frequencies and length only) the scores are
 * compared exactly too.
 */
public class KeptDeletionsDifferentialTest extends LuceneTestCase {
  /** BM25 without collection statistics. */
  private static final class StatisticsFreeBM25 extends BM25Similarity {
    @Override
    protected float idf(long docFreq, long docCount) {
      return 1f;
    }

    @Override
    protected float avgFieldLength(CollectionStatistics collectionStats) {
      return 10f;
    }
  }

  public void testKeptAndDroppedDeletionsGiveTheSameAnswers() throws Exception {
    try (Directory kept = new ByteBuffersDirectory();
        Directory dropped = new ByteBuffersDirectory()) {
      // deletions are kept only where merges link: NvmCodec (on any directory; clones are copies here)
      runOps(new Random(random().nextLong()), kept, dropped, new NvmCodec(), 4_000);
    }
  }

  /** The production tiers: segments written with NvmCodec into NvmDirectory pools. */
  public void testOnNvmDirectoryWithNvmCodec() throws Exception {
    try (Directory kept = NvmDirectory.open(PoolPaths.poolIn(createTempDir("kept")), 128L << 20);
        Directory dropped =
            NvmDirectory.open(PoolPaths.poolIn(createTempDir("dropped")), 128L << 20)) {
      runOps(new Random(random().nextLong()), kept, dropped, new NvmCodec(), 4_000);
    }
  }

  private void runOps(Random r, Directory keptDir, Directory droppedDir, Codec codec, int ops)
      throws Exception {
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withCodec(codec)
            .withLinkedMerges(true)
            .withSegmentSize(30 + r.nextInt(100))
            .withDramBudgetBytes(20_000 + r.nextInt(100_000))
            .withMergeFactor(2 + r.nextInt(3))
            .withStatistics(r.nextBoolean() ? StatisticsMode.PER_QUERY : StatisticsMode.PER_EPOCH);
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    List<String> ids = new ArrayList<>();
    int nextId = 0;
    int mergedWithDeletions = 0;
    try (RtEngine kept = RtEngine.open(keptDir, config.withMergeDeletesPctAllowed(100));
        RtEngine dropped = RtEngine.open(droppedDir, config.withMergeDeletesPctAllowed(0))) {
      for (int op = 0; op < ops; op++) {
        int kind = r.nextInt(100);
        if (kind >= 90) {
          compare(kept, dropped, TestCorpus.randomQuery(r, parser));
          mergedWithDeletions += mergedWithDeletions(kept);
        } else if (kind < 55 || ids.isEmpty()) {
          String id = "doc" + nextId++;
          RtDocument doc = TestCorpus.randomDocument(r, id);
          kept.add(doc);
          dropped.add(doc);
          ids.add(id);
        } else if (kind < 72) {
          RtDocument doc = TestCorpus.randomDocument(r, ids.get(r.nextInt(ids.size())));
          kept.update(doc);
          dropped.update(doc);
        } else {
          String id = ids.remove(r.nextInt(ids.size()));
          assertTrue(kept.delete(id));
          assertTrue(dropped.delete(id));
        }
      }
      assertEquals(ids.size(), kept.stats().liveDocs());
      assertEquals(ids.size(), dropped.stats().liveDocs());
      assertTrue("no merge kept deleted documents", mergedWithDeletions > 0);
    }
  }

  /** Merged segments of {@code engine} that hold deleted documents now. */
  static int mergedWithDeletions(RtEngine engine) {
    int count = 0;
    for (RtSegmentInfo s : engine.segments()) {
      if (s.state() == SegmentState.MERGED && s.deletedDocs() > 0) {
        count++;
      }
    }
    return count;
  }

  private static void compare(RtEngine kept, RtEngine dropped, Query q) throws IOException {
    Answer expected = answer(dropped, q);
    Answer actual = answer(kept, q);
    assertEquals(q.toString(), expected.numDocs, actual.numDocs);
    assertEquals(q.toString(), expected.bm25.keySet(), actual.bm25.keySet());
    assertEquals(q.toString(), expected.statisticsFree, actual.statisticsFree);
  }

  /** One snapshot's answers to {@code q}: its numDocs, BM25 and statistics-free scores by id. */
  private record Answer(int numDocs, Map<String, Float> bm25, Map<String, Float> statisticsFree) {}

  private static Answer answer(RtEngine engine, Query q) throws IOException {
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      IndexSearcher searcher = snapshot.searcher();
      Map<String, Float> bm25 = HitsById.collect(searcher, q);
      searcher.setSimilarity(new StatisticsFreeBM25());
      return new Answer(
          snapshot.reader().numDocs(), bm25, HitsById.collect(searcher, q));
    }
  }
}
