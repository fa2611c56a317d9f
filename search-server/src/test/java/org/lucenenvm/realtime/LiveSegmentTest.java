package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/** The live segment answers like a Lucene segment built from the same documents. */
public class LiveSegmentTest extends LuceneTestCase {
  private static final RtSchema SCHEMA =
      RtSchema.builder().text("title").text("body").keyword("tag").stored("url").build();

  public void testQueriesAndScoresMatchIndexWriter() throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    DocumentInverter inverter = new DocumentInverter(SCHEMA, analyzer, new BM25Similarity());
    LiveSegment live = new LiveSegment(SCHEMA, 2000);
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
      int numDocs = atLeast(300);
      for (int i = 0; i < numDocs; i++) {
        RtDocument doc = TestCorpus.randomDocument(random(), "d" + i);
        live.add(inverter.invert(doc));
        writer.addDocument(TestCorpus.toLucene(doc, SCHEMA));
      }
      try (IndexReader expected = DirectoryReader.open(writer)) {
        LiveLeafReader actual = live.reader(null);
        assertEquals(expected.maxDoc(), actual.maxDoc());
        TestUtil.checkReader(actual);
        IndexSearcher es = new IndexSearcher(expected);
        IndexSearcher as = new IndexSearcher(actual);
        QueryParser parser = new QueryParser("body", analyzer);
        for (int q = 0; q < 200; q++) {
          Query query = TestCorpus.randomQuery(random(), parser);
          TopDocs e = es.search(query, 10);
          TopDocs a = as.search(query, 10);
          assertEquals(query.toString(), e.totalHits, a.totalHits);
          for (int i = 0; i < e.scoreDocs.length; i++) {
            assertEquals(query.toString(), e.scoreDocs[i].doc, a.scoreDocs[i].doc);
            assertEquals(query.toString(), e.scoreDocs[i].score, a.scoreDocs[i].score, 0f);
          }
          assertEquals(es.count(query), as.count(query));
        }
        TermQuery tag = new TermQuery(new Term("tag", "t3"));
        assertEquals(es.count(tag), as.count(tag));
        Document stored = as.storedFields().document(5);
        assertEquals("d5", stored.get("id"));
        var ids = actual.getBinaryDocValues("id");
        assertTrue(ids.advanceExact(7));
        assertEquals(new BytesRef("d7"), ids.binaryValue());
      }
    }
  }

  public void testSnapshotIgnoresLaterDocuments() throws Exception {
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());
    LiveSegment live = new LiveSegment(SCHEMA, 10);
    live.add(inverter.invert(new RtDocument("a", Map.of("body", "red fox"))));
    LiveLeafReader before = live.reader(null);
    live.add(inverter.invert(new RtDocument("b", Map.of("body", "red dog", "title", "new"))));
    IndexSearcher old = new IndexSearcher(before);
    assertEquals(1, old.count(new TermQuery(new Term("body", "red"))));
    assertEquals(0, old.count(new TermQuery(new Term("title", "new"))));
    assertNull(before.terms("title"));
    IndexSearcher now = new IndexSearcher(live.reader(null));
    assertEquals(2, now.count(new TermQuery(new Term("body", "red"))));
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(new TermQuery(new Term("body", "red")), BooleanClause.Occur.MUST);
    b.add(new PhraseQuery("body", "red", "dog"), BooleanClause.Occur.MUST);
    assertEquals(1, new IndexSearcher(live.reader(null)).count(b.build()));
  }

  /**
   * Documents that fail half-way (a refused term injected at a random place, after other fields and
   * terms were already added) leave nothing: the snapshot taken before is unchanged, and the
   * segment after all adds equals an IndexWriter index of the documents that succeeded.
   */
  public void testFailedAddLeavesNothing() throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    DocumentInverter inverter = new DocumentInverter(SCHEMA, analyzer, new BM25Similarity());
    int numDocs = atLeast(800);
    LiveSegment live = new LiveSegment(SCHEMA, numDocs);
    List<RtDocument> added = new ArrayList<>();
    int failures = 0;
    for (int i = 0; i < numDocs; i++) {
      RtDocument doc = TestCorpus.randomDocument(random(), "d" + i);
      InvertedDocument inverted = inverter.invert(doc);
      // From the second doc on: an IndexSearcher refuses a leaf of maxDoc 0 (Lucene never has one).
      if (i > 0 && random().nextInt(4) == 0) {
        InvertedDocument broken = breakOneTerm(random(), inverted);
        if (broken != null) {
          LiveLeafReader before = live.reader(null);
          long bodyHits = new IndexSearcher(before).count(new TermQuery(new Term("body", "w0")));
          expectThrows(IllegalArgumentException.class, () -> live.add(broken));
          failures++;
          assertEquals(i, live.published());
          assertEquals(
              bodyHits, new IndexSearcher(live.reader(null)).count(new TermQuery(new Term("body", "w0"))));
        }
      }
      assertEquals(i, live.add(inverted));
      added.add(doc);
    }
    assertTrue(failures > 0);
    LiveLeafReaderComparisonTest.assertMatches(live.reader(null), added, analyzer);
  }

  /**
   * A copy of {@code doc} whose field {@code j}, term {@code i} is refused by the live segment
   * (too long, or positions out of order), or null when the doc has no term to break.
   */
  static InvertedDocument breakOneTerm(Random random, InvertedDocument doc) {
    List<InvertedField> fields = new ArrayList<>(doc.fields());
    List<Integer> withTerms = new ArrayList<>();
    for (int j = 0; j < fields.size(); j++) {
      if (fields.get(j).terms().length > 0) {
        withTerms.add(j);
      }
    }
    if (withTerms.isEmpty()) {
      return null;
    }
    int j = withTerms.get(random.nextInt(withTerms.size()));
    InvertedField f = fields.get(j);
    int i = random.nextInt(f.terms().length);
    BytesRef[] terms = f.terms().clone();
    int[][] positions = f.positions().clone();
    if (f.kind() == FieldKind.TEXT && random.nextBoolean()) {
      positions[i] = new int[] {5, 2};
    } else {
      terms[i] = new BytesRef(new byte[IndexWriter.MAX_TERM_LENGTH + 1]);
    }
    fields.set(j, new InvertedField(f.name(), f.kind(), terms, positions, f.length(), f.norm()));
    return new InvertedDocument(
        doc.document(), doc.stored(), doc.storesEverything(), doc.id(), fields);
  }

  /** A delete copies one block, and older deletions keep their view. */
  public void testDeletionsAreCopyOnWrite() {
    int capacity = 10_000;
    DeletedDocs first = DeletedDocs.delete(null, 17, capacity);
    DeletedDocs second = DeletedDocs.delete(first, 9_999, capacity);
    DeletedDocs third = DeletedDocs.delete(second, 18, capacity);
    assertFalse(first.get(17));
    assertTrue(first.get(9_999));
    assertTrue(first.get(18));
    assertFalse(second.get(9_999));
    assertTrue(second.get(18));
    assertFalse(third.get(18));
    assertEquals(3, third.count());
    expectThrows(IllegalStateException.class, () -> DeletedDocs.delete(third, 17, capacity));
    DeletedDocs roundTrip = new DeletedDocs(third.live(), third.count());
    for (int doc = 0; doc < capacity; doc++) {
      assertEquals(third.get(doc), roundTrip.get(doc));
    }
    assertEquals(capacity, roundTrip.length());
  }
}
