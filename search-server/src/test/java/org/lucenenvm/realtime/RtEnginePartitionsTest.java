package org.lucenenvm.realtime;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Partitioned engines route by id and merge the per-partition top-k. */
public class RtEnginePartitionsTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtEngineDifferentialTest.SCHEMA;

  public void testFanOutMatchesSingleIndex() throws Exception {
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withCodec(TestUtil.getDefaultCodec())
            .withSegmentSize(150)
            .withMergeFactor(3);
    StandardAnalyzer analyzer = new StandardAnalyzer();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Directory nvm = new ByteBuffersDirectory();
        Directory refDir = new ByteBuffersDirectory();
        IndexWriter ref = new IndexWriter(refDir, new IndexWriterConfig(analyzer));
        RtEngine engine = RtEngine.open(nvm, config.withPartitions(3), pool)) {
      int n = 2000;
      for (int i = 0; i < n; i++) {
        RtDocument doc = TestCorpus.randomDocument(random(), "d" + i);
        engine.add(doc);
        ref.addDocument(TestCorpus.toLucene(doc, SCHEMA));
      }
      for (int i = 0; i < n; i += 7) {
        engine.delete("d" + i);
        ref.deleteDocuments(new Term("id", "d" + i));
      }
      int[] perPartition = new int[3];
      for (int i = 0; i < 3; i++) {
        perPartition[i] = (int) engine.stats(i).liveDocs();
        assertTrue(perPartition[i] > 0);
      }
      try (DirectoryReader reader = DirectoryReader.open(ref)) {
        assertEquals(reader.numDocs(), perPartition[0] + perPartition[1] + perPartition[2]);
        IndexSearcher searcher = new IndexSearcher(reader);
        QueryParser parser = new QueryParser("body", analyzer);
        for (int q = 0; q < 100; q++) {
          Query query = TestCorpus.randomQuery(random(), parser);
          int expected = searcher.count(query);
          RtSearchResult all = engine.search(RtSearchRequest.of(query, n));
          assertEquals(query.toString(), expected, all.hits().size());
          Set<String> ids = new HashSet<>();
          float last = Float.POSITIVE_INFINITY;
          for (RtHit hit : all.hits()) {
            assertTrue(ids.add(hit.id()));
            assertTrue(hit.score() <= last);
            last = hit.score();
          }
          RtSearchResult top = engine.search(RtSearchRequest.of(query, 10));
          assertEquals(Math.min(10, expected), top.hits().size());
          for (int i = 0; i < top.hits().size(); i++) {
            assertEquals(all.hits().get(i).score(), top.hits().get(i).score(), 0f);
          }
        }
        assertEquals(reader.numDocs(), engine.count(MatchAllDocsQuery.INSTANCE));
      }
      engine.update(new RtDocument("d1", Map.of("body", "replaced")));
      RtSearchResult replaced = engine.search(RtSearchRequest.of(new TermQuery(new Term("body", "replaced")), 1));
      assertEquals("d1", replaced.hits().get(0).id());
    } finally {
      pool.shutdown();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  public void testScoresEqualSingleIndexScores() throws Exception {
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withCodec(TestUtil.getDefaultCodec())
            .withSegmentSize(120)
            .withMergeFactor(3);
    StandardAnalyzer analyzer = new StandardAnalyzer();
    try (Directory nvm = new ByteBuffersDirectory();
        Directory refDir = new ByteBuffersDirectory();
        IndexWriter ref = new IndexWriter(refDir, new IndexWriterConfig(analyzer));
        RtEngine engine = RtEngine.open(nvm, config.withPartitions(4), null)) {
      int n = 1500;
      for (int i = 0; i < n; i++) {
        RtDocument doc = TestCorpus.randomDocument(random(), "d" + i);
        engine.add(doc);
        ref.addDocument(TestCorpus.toLucene(doc, SCHEMA));
      }
      try (DirectoryReader reader = DirectoryReader.open(ref)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        QueryParser parser = new QueryParser("body", analyzer);
        for (int q = 0; q < 100; q++) {
          Query query = TestCorpus.randomQuery(random(), parser);
          Map<String, Float> expected = HitsById.collect(searcher, query);
          Map<String, Float> actual = new HashMap<>();
          for (RtHit hit : engine.search(RtSearchRequest.of(query, n)).hits()) {
            actual.put(hit.id(), hit.score());
          }
          assertEquals(query.toString(), expected, actual);
        }
      }
    }
  }

  public void testGracefulRestartOfAllPartitions() throws Exception {
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withCodec(TestUtil.getDefaultCodec())
            .withSegmentSize(100)
            .withMode(DurabilityMode.GRACEFUL);
    try (Directory nvm = new ByteBuffersDirectory()) {
      try (RtEngine engine = RtEngine.open(nvm, config.withPartitions(2), null)) {
        for (int i = 0; i < 500; i++) {
          engine.add(new RtDocument("d" + i, Map.of("body", "word" + (i % 5))));
        }
        assertTrue(engine.delete("d3"));
      }
      try (RtEngine engine = RtEngine.open(nvm, config.withPartitions(2), null)) {
        assertEquals(499, engine.count(MatchAllDocsQuery.INSTANCE));
        assertEquals(99, engine.count(new TermQuery(new Term("body", "word3"))));
        assertEquals(0, engine.count(new TermQuery(new Term("id", "d3"))));
        assertNull(engine.get("d3"));
        engine.add(new RtDocument("d3", Map.of("body", "back")));
        assertEquals(500, engine.count(MatchAllDocsQuery.INSTANCE));
      }
    }
  }

  public void testReopenWithOtherPartitionCountIsRefused() throws Exception {
    RtEngineConfig config = RtEngineConfig.defaults(SCHEMA).withSegmentSize(10);
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine.open(nvm, config.withPartitions(2), null).close();
      IllegalArgumentException e =
          expectThrows(
              IllegalArgumentException.class, () -> RtEngine.open(nvm, config.withPartitions(3), null));
      assertTrue(e.getMessage(), e.getMessage().contains("2 partitions"));
    }
  }
}
