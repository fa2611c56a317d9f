package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.Map;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.Test;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtSchema;
import org.lucenenvm.realtime.RtSnapshot;

/** NRT's documents carry the engine's id field, indexed, stored and with doc values alike. */
public class TestDocumentIds {
  private static final LineDoc DOC = new LineDoc("a title", "2024-01-01", "some body text");

  @Test
  public void nrtDocumentsCarryTheEngineIdField() throws Exception {
    try (Directory nrtDir = new ByteBuffersDirectory();
        Directory engineDir = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(nrtDir, new IndexWriterConfig(new StandardAnalyzer()))) {
        CorpusIngest.DocumentSink sink = CorpusIngest.into(writer, DocumentFactory.withIds());
        sink.add(DOC);
        sink.add(DOC);
      }
      try (RtEngine engine = RtEngine.open(engineDir, RtEngineConfig.defaults(EngineTarget.SCHEMA));
          DirectoryReader nrt = DirectoryReader.open(nrtDir)) {
        engine.add(new RtDocument("0", Map.of(DocumentFactory.TITLE, DOC.title(), DocumentFactory.DATE, DOC.date(),
            DocumentFactory.BODY, DOC.body())));
        try (RtSnapshot snapshot = engine.acquireSnapshot()) {
          LeafReader engineLeaf = snapshot.reader().leaves().get(0).reader();
          LeafReader nrtLeaf = nrt.leaves().get(0).reader();
          FieldInfo expected = engineLeaf.getFieldInfos().fieldInfo(RtSchema.ID_FIELD);
          FieldInfo actual = nrtLeaf.getFieldInfos().fieldInfo(DocumentFactory.ID);
          assertEquals(expected.getIndexOptions(), actual.getIndexOptions());
          assertEquals(expected.getDocValuesType(), actual.getDocValuesType());
          assertEquals(expected.omitsNorms(), actual.omitsNorms());
          assertEquals(snapshot.reader().storedFields().document(0).get(RtSchema.ID_FIELD),
              nrt.storedFields().document(0).get(DocumentFactory.ID));
        }
        assertEquals(1, new IndexSearcher(nrt).count(new TermQuery(new Term(DocumentFactory.ID, "1"))));
        BinaryDocValues ids = nrt.leaves().get(0).reader().getBinaryDocValues(DocumentFactory.ID);
        assertEquals(1, ids.advance(1));
        assertEquals(new BytesRef("1"), ids.binaryValue());
      }
    }
  }

  @Test
  public void staticDocumentsHaveNoId() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
        CorpusIngest.into(writer).add(DOC);
      }
      try (IndexReader reader = DirectoryReader.open(dir)) {
        assertNull(reader.leaves().get(0).reader().getFieldInfos().fieldInfo(DocumentFactory.ID));
      }
    }
  }
}
