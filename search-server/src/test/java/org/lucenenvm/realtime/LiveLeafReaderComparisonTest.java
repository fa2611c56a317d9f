package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Randomized: a live leaf reader (the current one and an older snapshot taken while the writer
 * went on) against a single-segment IndexWriter index of the same documents: terms, statistics,
 * postings, positions, advance, impact upper bounds, BM25 top-k with block-max skipping equal to
 * exhaustive. Enough documents that frequent terms span many posting blocks.
 */
public class LiveLeafReaderComparisonTest extends LuceneTestCase {
  private static final RtSchema SCHEMA =
      RtSchema.builder().text("title").text("body").keyword("tag").stored("url").build();
  private static final String[] FIELDS = {"id", "title", "body", "tag"};

  public void testLiveReaderMatchesIndexWriter() throws Exception {
    Analyzer analyzer = new StandardAnalyzer();
    DocumentInverter inverter = new DocumentInverter(SCHEMA, analyzer, new BM25Similarity());
    int numDocs = atLeast(1500);
    int snapshotAt = random().nextInt(numDocs);
    LiveSegment live = new LiveSegment(SCHEMA, numDocs + random().nextInt(10));
    List<RtDocument> docs = new ArrayList<>();
    LiveLeafReader snapshot = null;
    for (int i = 0; i < numDocs; i++) {
      if (i == snapshotAt) {
        snapshot = live.reader(null);
      }
      RtDocument doc = TestCorpus.randomDocument(random(), "d" + i);
      docs.add(doc);
      live.add(inverter.invert(doc));
    }
    assertEquals(snapshotAt, snapshot.maxDoc());
    assertMatches(live.reader(null), docs, analyzer);
    assertMatches(snapshot, docs.subList(0, snapshotAt), analyzer);
  }

  static void assertMatches(LeafReader actual, List<RtDocument> docs, Analyzer analyzer)
      throws IOException {
    if (docs.isEmpty()) {
      assertEquals(0, actual.maxDoc());
      return;
    }
    TestUtil.checkReader(actual);
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer =
            new IndexWriter(
                dir,
                new IndexWriterConfig(analyzer)
                    .setCodec(TestUtil.getDefaultCodec())
                    .setMergePolicy(new LogDocMergePolicy()))) {
      for (RtDocument doc : docs) {
        writer.addDocument(TestCorpus.toLucene(doc, SCHEMA));
      }
      writer.forceMerge(1);
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        LeafReader expected = getOnlyLeafReader(reader);
        LiveReaderAssertions.assertSamePostings(random(), expected, actual, FIELDS);
        LiveReaderAssertions.assertSameTopHits(
            random(),
            new IndexSearcher(expected),
            new IndexSearcher(actual),
            new QueryParser("body", analyzer),
            100);
      }
    }
  }
}
