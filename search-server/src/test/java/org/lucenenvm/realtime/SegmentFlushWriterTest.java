package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SlowCodecReaderWrapper;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.codec.NvmCodec;

/**
 * The direct flush of a live segment against the merge path it replaced ({@code addIndexes} of the
 * live reader): a valid segment (CheckIndex), the same terms, statistics, postings, positions,
 * norms, stored fields, id doc values, field infos and top hits, in Lucene104 and in NvmCodec.
 */
public class SegmentFlushWriterTest extends LuceneTestCase {
  private static final RtSchema SCHEMA =
      RtSchema.builder().text("title").text("body").keyword("tag").stored("url").build();
  private static final String[] FIELDS = {"id", "title", "body", "tag"};

  public void testMatchesAddIndexesInDefaultCodec() throws Exception {
    assertFlushMatchesAddIndexes(TestUtil.getDefaultCodec());
  }

  public void testMatchesAddIndexesInNvmCodec() throws Exception {
    assertFlushMatchesAddIndexes(new NvmCodec());
  }

  public void testEmptySegmentIsRefused() throws Exception {
    LiveSegment live = new LiveSegment(SCHEMA, 4);
    try (Directory dir = newDirectory()) {
      IllegalArgumentException e =
          expectThrows(
              IllegalArgumentException.class,
              () -> new SegmentFlushWriter(Codec.getDefault()).write(dir, live.reader(null)));
      assertTrue(e.getMessage(), e.getMessage().contains("without documents"));
    }
  }

  /** A text field no document gave a token has field infos and norms but no terms. */
  public void testFieldWithoutTermsMatchesAddIndexes() throws Exception {
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());
    LiveSegment live = new LiveSegment(SCHEMA, 3);
    live.add(inverter.invert(new RtDocument("a", Map.of("title", "", "body", "one two"))));
    live.add(inverter.invert(new RtDocument("b", Map.of("title", " , ", "url", "u"))));
    live.add(inverter.invert(new RtDocument("c", Map.of("body", "two three", "tag", "t"))));
    assertFlushMatchesAddIndexes(TestUtil.getDefaultCodec(), live.reader(null));
  }

  private void assertFlushMatchesAddIndexes(Codec codec) throws IOException {
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());
    int numDocs = atLeast(600);
    LiveSegment live = new LiveSegment(SCHEMA, numDocs);
    for (int i = 0; i < numDocs; i++) {
      live.add(inverter.invert(TestCorpus.randomDocument(random(), "d" + i)));
    }
    // A snapshot below the published count flushes only its documents.
    int maxDoc = random().nextBoolean() ? numDocs : 1 + random().nextInt(numDocs);
    assertFlushMatchesAddIndexes(codec, new LiveLeafReader(live, maxDoc, null));
  }

  private void assertFlushMatchesAddIndexes(Codec codec, LiveLeafReader source)
      throws IOException {
    Analyzer analyzer = new StandardAnalyzer();
    SegmentFiles files = new SegmentFiles(codec, new BM25Similarity(), false, 10); // copying merges
    try (Directory flushed = newDirectory();
        Directory merged = newDirectory()) {
      new SegmentFlushWriter(codec).write(flushed, source);
      files.write(merged, SlowCodecReaderWrapper.wrap(source));
      TestUtil.checkIndex(flushed);
      try (DirectoryReader actualReader = DirectoryReader.open(flushed);
          DirectoryReader expectedReader = DirectoryReader.open(merged)) {
        LeafReader actual = getOnlyLeafReader(actualReader);
        LeafReader expected = getOnlyLeafReader(expectedReader);
        assertEquals(codec.getName(), segmentCodec(actual));
        LiveReaderAssertions.assertSamePostings(random(), expected, actual, FIELDS);
        assertSameFieldInfos(expected.getFieldInfos(), actual.getFieldInfos());
        assertSameStoredFieldsAndIds(expected, actual);
        LiveReaderAssertions.assertSameTopHits(
            random(),
            new IndexSearcher(expected),
            new IndexSearcher(actual),
            new QueryParser("body", analyzer),
            50);
      }
    }
  }

  private static String segmentCodec(LeafReader reader) {
    return ((SegmentReader) reader).getSegmentInfo().info.getCodec().getName();
  }

  private static void assertSameFieldInfos(FieldInfos expected, FieldInfos actual) {
    assertEquals(expected.size(), actual.size());
    for (FieldInfo e : expected) {
      FieldInfo a = actual.fieldInfo(e.name);
      assertNotNull(e.name, a);
      assertEquals(e.name, e.getIndexOptions(), a.getIndexOptions());
      assertEquals(e.name, e.hasNorms(), a.hasNorms());
      assertEquals(e.name, e.getDocValuesType(), a.getDocValuesType());
    }
  }

  private static void assertSameStoredFieldsAndIds(LeafReader expected, LeafReader actual)
      throws IOException {
    StoredFields e = expected.storedFields();
    StoredFields a = actual.storedFields();
    BinaryDocValues expectedIds = expected.getBinaryDocValues(RtSchema.ID_FIELD);
    BinaryDocValues actualIds = actual.getBinaryDocValues(RtSchema.ID_FIELD);
    for (int doc = 0; doc < expected.maxDoc(); doc++) {
      Document ed = e.document(doc);
      Document ad = a.document(doc);
      assertEquals("doc " + doc, ed.getFields().size(), ad.getFields().size());
      for (int i = 0; i < ed.getFields().size(); i++) {
        assertEquals(ed.getFields().get(i).name(), ad.getFields().get(i).name());
        assertEquals(ed.getFields().get(i).stringValue(), ad.getFields().get(i).stringValue());
      }
      assertEquals(doc, expectedIds.nextDoc());
      assertEquals(doc, actualIds.nextDoc());
      assertEquals(expectedIds.binaryValue(), actualIds.binaryValue());
    }
  }
}
