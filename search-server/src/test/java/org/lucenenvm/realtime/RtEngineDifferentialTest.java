package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * Randomized adds, updates, deletes and queries against the engine and against a plain IndexWriter
 * with an NRT reader given the same operations: the matching documents must always be the same,
 * and without deletes the BM25 scores too. Small segments, a small DRAM budget and a low merge
 * factor make the runs cross flush, engrave, commit and merge many times.
 */
public class RtEngineDifferentialTest extends LuceneTestCase {
  static final RtSchema SCHEMA =
      RtSchema.builder().text("title").text("body").keyword("tag").stored("url").build();

  public void testRandomOpsMatchIndexWriter() throws Exception {
    for (int seed = 0; seed < 3; seed++) {
      Random r = new Random(random().nextLong());
      PipelinePolicy policy = PipelinePolicy.values()[seed % PipelinePolicy.values().length];
      Directory dir =
          seed == 1 ? new MMapDirectory(createTempDir("nvm")) : new ByteBuffersDirectory();
      try (Directory nvm = dir) {
        runOps(r, nvm, TestUtil.getDefaultCodec(), policy, 10_000, true);
      }
    }
  }

  /** The production tiers: segments written with NvmCodec, engraved into an NvmDirectory pool. */
  public void testRandomOpsOnNvmDirectoryWithNvmCodec() throws Exception {
    Random r = new Random(random().nextLong());
    try (Directory nvm = NvmDirectory.open(PoolPaths.poolIn(createTempDir("pool")), 256L << 20)) {
      runOps(r, nvm, new NvmCodec(), PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, 10_000, true);
    }
  }

  public void testScoresEqualWithoutDeletes() throws Exception {
    Random r = new Random(random().nextLong());
    try (Directory nvm = new ByteBuffersDirectory()) {
      runOps(r, nvm, TestUtil.getDefaultCodec(), PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, 10_000, false);
    }
  }

  private void runOps(
      Random r, Directory nvm, Codec codec, PipelinePolicy policy, int ops, boolean deletes)
      throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withCodec(codec)
            .withSegmentSize(50 + r.nextInt(150))
            .withDramBudgetBytes(20_000 + r.nextInt(100_000))
            .withMergeFactor(2 + r.nextInt(3))
            .withPolicy(policy);
    QueryParser parser = new QueryParser("body", analyzer);
    List<String> ids = new ArrayList<>();
    int nextId = 0;
    int queries = 0;
    try (Directory refDir = new ByteBuffersDirectory();
        IndexWriter ref =
            new IndexWriter(
                refDir, new IndexWriterConfig(analyzer).setCodec(TestUtil.getDefaultCodec()));
        RtEngine engine = RtEngine.open(nvm, config)) {
      DirectoryReader refReader = DirectoryReader.open(ref);
      try {
        for (int op = 0; op < ops; op++) {
          int kind = r.nextInt(100);
          if (kind >= 85) {
            DirectoryReader newer = DirectoryReader.openIfChanged(refReader, ref);
            if (newer != null) {
              refReader.close();
              refReader = newer;
            }
            Query q = TestCorpus.randomQuery(r, parser);
            compare(engine, refReader, q, !deletes);
            queries++;
          } else if (!deletes || kind < 60 || ids.isEmpty()) {
            String id = "doc" + nextId++;
            RtDocument doc = TestCorpus.randomDocument(r, id);
            engine.add(doc);
            ref.addDocument(TestCorpus.toLucene(doc, SCHEMA));
            ids.add(id);
          } else if (kind < 75) {
            String id = ids.get(r.nextInt(ids.size()));
            RtDocument doc = TestCorpus.randomDocument(r, id);
            engine.update(doc);
            ref.updateDocument(new Term("id", id), TestCorpus.toLucene(doc, SCHEMA));
          } else {
            String id = ids.remove(r.nextInt(ids.size()));
            assertTrue(engine.delete(id));
            ref.deleteDocuments(new Term("id", id));
          }
        }
        RtEngineStats stats = engine.stats();
        assertEquals(ids.size(), stats.liveDocs());
        assertTrue(queries > 0);
        assertTrue("no merge happened: " + stats, stats.segments().containsKey(SegmentState.MERGED));
        assertTrue("nothing in NVM: " + stats, stats.nvmBytes() > 0);
      } finally {
        refReader.close();
      }
    }
  }

  private static void compare(RtEngine engine, DirectoryReader refReader, Query q, boolean scores)
      throws IOException {
    Map<String, Float> expected = HitsById.collect(new IndexSearcher(refReader), q);
    Map<String, Float> actual;
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      actual = HitsById.collect(snapshot.searcher(), q);
    }
    assertEquals(q.toString(), expected.keySet(), actual.keySet());
    if (scores) {
      assertEquals(q.toString(), expected, actual);
    }
  }
}
