package org.lucenenvm.opensearch;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.codecs.asserting.AssertingPostingsFormat;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.codec.NvmPostingsFormat;

/** The OpenSearch codec keeps the wrapped codec's special per-field formats and is found by SPI. */
public class TestNvm105Codec extends LuceneTestCase {

  /** Stands in for OpenSearch's default codec: a special format for one field. */
  private static Codec openSearchLikeDefault() {
    return new Lucene104Codec() {
      @Override
      public PostingsFormat getPostingsFormatForField(String field) {
        return field.equals("suggest") ? new AssertingPostingsFormat() : super.getPostingsFormatForField(field);
      }
    };
  }

  public void testReplacesOnlyTheDefaultPostings() {
    PerFieldPostingsFormat postings = (PerFieldPostingsFormat) new Nvm105Codec(openSearchLikeDefault()).postingsFormat();
    assertEquals(NvmPostingsFormat.NAME, postings.getPostingsFormatForField("body").getName());
    assertEquals("Asserting", postings.getPostingsFormatForField("suggest").getName());
  }

  public void testSegmentsNameTheVersionedCodecAndReadBackThroughSpi() throws Exception {
    assertTrue(Codec.availableCodecs().contains(Nvm105Codec.NAME));
    assertEquals(java.util.Set.of(Nvm105Codec.ALIAS), new Nvm105Codec().aliases());
    try (Directory dir = newDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig().setCodec(new Nvm105Codec(openSearchLikeDefault()));
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < 100; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "hello doc" + (i % 3), Field.Store.NO));
          doc.add(new StringField("suggest", "s" + i, Field.Store.NO));
          writer.addDocument(doc);
        }
      }
      assertEquals(Nvm105Codec.NAME, SegmentInfos.readLatestCommit(dir).info(0).info.getCodec().getName());
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        assertEquals(34, searcher.count(new TermQuery(new Term("body", "doc0"))));
        assertEquals(1, searcher.count(new TermQuery(new Term("suggest", "s42"))));
      }
      TestUtil.checkIndex(dir);
    }
  }
}
