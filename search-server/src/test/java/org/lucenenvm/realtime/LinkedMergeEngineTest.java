package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterCodecReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.codec.NvmPostingsFormat;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * The engine's merges link postings on an {@link NvmDirectory} with {@link NvmCodec} and {@link
 * RtEngineConfig#withLinkedMerges} true, and copy them with it false (the default): the same documents
 * added to both engines give bit-identical answers (every hit's id and BM25 score, statistics per
 * query),
 * and the linking engine holds linked merged segments and the copying one none. (What linking
 * saves in time and bytes written is measured by {@code benchmarks merge}, not here.)
 */
public class LinkedMergeEngineTest extends LuceneTestCase {

  public void testLinkedAndCopiedMergesAnswerAlike() throws Exception {
    Random r = new Random(random().nextLong());
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withCodec(new NvmCodec())
            .withLinkedMerges(true)
            .withSegmentSize(50 + r.nextInt(50))
            .withMergeFactor(3)
            .withMaxSegments(6);
    QueryParser parser = new QueryParser("body", new StandardAnalyzer());
    try (NvmDirectory linkedPool =
            NvmDirectory.open(PoolPaths.poolIn(createTempDir("linked")), 128L << 20);
        NvmDirectory copiedPool =
            NvmDirectory.open(PoolPaths.poolIn(createTempDir("copied")), 128L << 20)) {
      try (RtEngine linked = RtEngine.open(linkedPool, config);
          RtEngine copied = RtEngine.open(copiedPool, config.withLinkedMerges(false))) {
        int docs = 1_500 + r.nextInt(500);
        int linkedSeen = 0;
        for (int i = 0; i < docs; i++) {
          RtDocument doc = TestCorpus.randomDocument(r, "doc" + i);
          linked.add(doc);
          copied.add(doc);
          if (r.nextInt(50) == 0) {
            compare(linked, copied, TestCorpus.randomQuery(r, parser));
            linkedSeen += linkedSegments(linked);
            assertEquals("the copying engine linked", 0, linkedSegments(copied));
          }
        }
        PipelineWaits.durable(linked);
        PipelineWaits.durable(copied);
        for (int q = 0; q < 50; q++) {
          compare(linked, copied, TestCorpus.randomQuery(r, parser));
        }
        linkedSeen += linkedSegments(linked);
        assertTrue("no merged segment was ever linked: " + linked.segments(), linkedSeen > 0);
        assertEquals("the copying engine linked", 0, linkedSegments(copied));
        assertEquals(docs, linked.stats().liveDocs());
      }
    }
  }

  /**
   * Every hit of {@code q}, as sorted "id=score bits": ties may come in another order, since the
   * two engines' segments (and so their doc ids) depend on when their merges ran.
   */
  private static void compare(RtEngine linked, RtEngine copied, Query q) throws IOException {
    assertEquals(q.toString(), allHits(copied, q), allHits(linked, q));
  }

  private static List<String> allHits(RtEngine engine, Query q) throws IOException {
    List<String> hits =
        new ArrayList<>(RtSearchResults.idsAndScores(engine.search(RtSearchRequest.of(q, 10_000))));
    hits.sort(null);
    return hits;
  }

  /** Segments of {@code engine}'s current snapshot whose postings are linked. */
  private static int linkedSegments(RtEngine engine) throws IOException {
    List<String> linked = new ArrayList<>();
    try (RtSnapshot snapshot = engine.acquireSnapshot()) {
      for (LeafReaderContext leaf : snapshot.reader().leaves()) {
        if (leaf.reader() instanceof CodecReader codecReader
            && FilterCodecReader.unwrap(codecReader) instanceof SegmentReader segment
            && NvmPostingsFormat.isLinked(segment.getSegmentInfo().info)) {
          linked.add(segment.getSegmentName());
        }
      }
    }
    return linked.size();
  }
}
