package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * {@link LeafListReader} answers as a {@link MultiReader} over the same leaves (doc bases, counts,
 * statistics, stored fields, hits), and its close neither closes nor dereferences its leaves.
 */
public class LeafListReaderTest extends LuceneTestCase {

  public void testAnswersAsAMultiReaderOverTheSameLeaves() throws IOException {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig().setMaxBufferedDocs(7 + random().nextInt(20));
      config.setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        int docs = 100 + random().nextInt(200);
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StoredField("n", i));
          doc.add(new TextField("body", "w" + (i % 5) + " w" + (i % 11) + (i % 3 == 0 ? " w0" : ""), Field.Store.NO));
          writer.addDocument(doc);
          if (random().nextInt(40) == 0) {
            writer.deleteDocuments(new Term("body", "w" + (i % 11)));
          }
        }
      }
      try (DirectoryReader index = DirectoryReader.open(dir)) {
        List<LeafReader> leaves = new ArrayList<>();
        for (LeafReaderContext ctx : index.leaves()) {
          leaves.add(ctx.reader());
        }
        assertTrue("several leaves expected, got " + leaves.size(), leaves.size() > 1);
        MultiReader expected = new MultiReader(leaves.toArray(new LeafReader[0]), false);
        LeafListReader actual = new LeafListReader(leaves) {
              @Override
              protected void doClose() {}
            };
        assertEquals(expected.maxDoc(), actual.maxDoc());
        assertEquals(expected.numDocs(), actual.numDocs());
        assertEquals(expected.leaves().size(), actual.leaves().size());
        for (int i = 0; i < leaves.size(); i++) {
          assertSame(leaves.get(i), actual.leaves().get(i).reader());
          assertEquals(expected.leaves().get(i).docBase, actual.leaves().get(i).docBase);
        }
        for (String word : new String[] {"w0", "w3", "w10", "absent"}) {
          Term term = new Term("body", word);
          assertEquals(expected.docFreq(term), actual.docFreq(term));
          assertEquals(expected.totalTermFreq(term), actual.totalTermFreq(term));
          TopDocs e = new IndexSearcher(expected).search(new TermQuery(term), 1000);
          TopDocs a = new IndexSearcher(actual).search(new TermQuery(term), 1000);
          assertEquals(e.totalHits, a.totalHits);
          for (int i = 0; i < e.scoreDocs.length; i++) {
            assertEquals(e.scoreDocs[i].doc, a.scoreDocs[i].doc);
            assertEquals(e.scoreDocs[i].score, a.scoreDocs[i].score, 0f);
          }
        }
        for (String field : new String[] {"body", "absent"}) {
          assertEquals(expected.getSumDocFreq(field), actual.getSumDocFreq(field));
          assertEquals(expected.getDocCount(field), actual.getDocCount(field));
          assertEquals(expected.getSumTotalTermFreq(field), actual.getSumTotalTermFreq(field));
        }
        StoredFields expectedStored = expected.storedFields();
        StoredFields actualStored = actual.storedFields();
        for (int doc = 0; doc < actual.maxDoc(); doc++) {
          assertEquals(
              expectedStored.document(doc).getField("n").numericValue(),
              actualStored.document(doc).getField("n").numericValue());
        }
        expectThrows(IllegalArgumentException.class, () -> actualStored.document(actual.maxDoc()));
        expectThrows(IllegalArgumentException.class, () -> actualStored.document(-1));

        int[] refsBefore = refCounts(leaves);
        actual.close();
        assertArrayEquals(refsBefore, refCounts(leaves));
        expectThrows(org.apache.lucene.store.AlreadyClosedException.class, actual::storedFields);
        expected.close();
        assertEquals(1, leaves.get(0).getRefCount());
      }
    }
  }

  private static int[] refCounts(List<LeafReader> leaves) {
    int[] refs = new int[leaves.size()];
    for (int i = 0; i < refs.length; i++) {
      refs[i] = leaves.get(i).getRefCount();
    }
    return refs;
  }

  public void testEmptyListIsAnEmptyReader() {
    LeafListReader empty = new LeafListReader(List.of()) {
          @Override
          protected void doClose() {}
        };
    assertEquals(0, empty.maxDoc());
    assertEquals(0, empty.numDocs());
    assertEquals(0, empty.leaves().size());
    assertNull(empty.getReaderCacheHelper());
  }
}
