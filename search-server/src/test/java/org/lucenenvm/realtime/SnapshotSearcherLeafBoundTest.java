package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/**
 * A snapshot's searcher bounds each leaf at its {@code maxDoc}: a small last leaf with no
 * competitive hit (the live tail's usual place) costs a few scoring windows, not the ~32,000 empty
 * ones that Lucene's top-level conjunction steps through up to {@code NO_MORE_DOCS}; the hits are
 * those of a plain {@link IndexSearcher}. The small leaf reports one exact impact for its whole
 * postings lists, as the live tail's enum does for a list shorter than a block (Lucene104 gives a
 * list that short no impacts of its own, so the scorer would find it competitive and exhaust it).
 */
public class SnapshotSearcherLeafBoundTest extends LuceneTestCase {

  public void testSmallLastLeafIsNotSteppedToNoMoreDocs() throws IOException {
    Query query =
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term("body", "a")), BooleanClause.Occur.MUST)
            .add(new TermQuery(new Term("body", "b")), BooleanClause.Occur.MUST)
            .build();
    try (ByteBuffersDirectory big = new ByteBuffersDirectory();
        ByteBuffersDirectory small = new ByteBuffersDirectory()) {
      // The big leaf: short documents full of both terms (high scores). The small one: long
      // documents with each term once, never competitive once the big leaf filled the top 10.
      index(big, 5_000, "a a a a b b b b");
      index(small, 50, "a b " + "filler ".repeat(40));
      try (DirectoryReader bigReader = DirectoryReader.open(big);
          DirectoryReader smallReader = DirectoryReader.open(small)) {
        AtomicLong shallowAdvances = new AtomicLong();
        LeafReader countingSmall =
            new TightImpactsReader(smallReader.leaves().get(0).reader(), shallowAdvances);
        try (MultiReader reader =
            new MultiReader(new LeafReader[] {bigReader.leaves().get(0).reader(), countingSmall}, false)) {
          IndexSearcher plain = new IndexSearcher(reader);
          TopDocs expected = plain.search(query, 10);
          long plainAdvances = shallowAdvances.getAndSet(0);
          assertTrue(
              "the plain searcher did not step the small leaf's windows (" + plainAdvances
                  + " shallow advances): the test no longer shows what it is for",
              plainAdvances > 10_000);

          RtSnapshot.SnapshotSearcher bounded = new RtSnapshot.SnapshotSearcher(reader, null, null);
          TopDocs actual = bounded.search(query, 10);
          assertTrue(
              "shallow advances on the small leaf: " + shallowAdvances.get(),
              shallowAdvances.get() < 100);
          assertEquals(expected.totalHits, actual.totalHits);
          assertEquals(expected.scoreDocs.length, actual.scoreDocs.length);
          for (int i = 0; i < expected.scoreDocs.length; i++) {
            assertEquals(expected.scoreDocs[i].doc, actual.scoreDocs[i].doc);
            assertEquals(expected.scoreDocs[i].score, actual.scoreDocs[i].score, 0f);
          }
        }
      }
    }
  }

  private static void index(ByteBuffersDirectory dir, int docs, String body) throws IOException {
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setCodec(TestUtil.getDefaultCodec()))) {
      for (int i = 0; i < docs; i++) {
        Document doc = new Document();
        doc.add(new TextField("body", body, Field.Store.NO));
        w.addDocument(doc);
      }
      w.forceMerge(1);
    }
  }

  /**
   * A leaf whose documents all have freq 1 and the same norm, and whose impacts enums say so (one
   * impact up to {@code NO_MORE_DOCS}) and count {@link ImpactsEnum#advanceShallow} calls.
   */
  private static final class TightImpactsReader extends FilterLeafReader {
    private final AtomicLong shallowAdvances;

    TightImpactsReader(LeafReader in, AtomicLong shallowAdvances) {
      super(in);
      this.shallowAdvances = shallowAdvances;
    }

    @Override
    public Terms terms(String field) throws IOException {
      Terms terms = super.terms(field);
      return terms == null
          ? null
          : new FilterTerms(terms) {
            @Override
            public TermsEnum iterator() throws IOException {
              return new FilterTermsEnum(in.iterator()) {
                @Override
                public boolean seekExact(BytesRef text) throws IOException {
                  return in.seekExact(text);
                }

                @Override
                public ImpactsEnum impacts(int flags) throws IOException {
                  return new TightImpactsEnum(in.impacts(flags), norm(field), shallowAdvances);
                }
              };
            }
          };
    }

    private long norm(String field) throws IOException {
      NumericDocValues norms = in.getNormValues(field);
      assertTrue(norms.advanceExact(0));
      return norms.longValue();
    }

    @Override
    public CacheHelper getCoreCacheHelper() {
      return null;
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }

  private static final class TightImpactsEnum extends ImpactsEnum {
    private final ImpactsEnum in;
    private final AtomicLong shallowAdvances;
    private final Impacts impacts;

    TightImpactsEnum(ImpactsEnum in, long norm, AtomicLong shallowAdvances) {
      this.in = in;
      this.shallowAdvances = shallowAdvances;
      FreqAndNormBuffer only = new FreqAndNormBuffer();
      only.add(1, norm);
      this.impacts =
          new Impacts() {
            @Override
            public int numLevels() {
              return 1;
            }

            @Override
            public int getDocIdUpTo(int level) {
              return NO_MORE_DOCS;
            }

            @Override
            public FreqAndNormBuffer getImpacts(int level) {
              return only;
            }
          };
    }

    @Override
    public void advanceShallow(int target) throws IOException {
      shallowAdvances.incrementAndGet();
      in.advanceShallow(target);
    }

    @Override
    public Impacts getImpacts() {
      return impacts;
    }

    @Override
    public int freq() throws IOException {
      return in.freq();
    }

    @Override
    public int nextPosition() throws IOException {
      return in.nextPosition();
    }

    @Override
    public int startOffset() throws IOException {
      return in.startOffset();
    }

    @Override
    public int endOffset() throws IOException {
      return in.endOffset();
    }

    @Override
    public BytesRef getPayload() throws IOException {
      return in.getPayload();
    }

    @Override
    public int docID() {
      return in.docID();
    }

    @Override
    public int nextDoc() throws IOException {
      return in.nextDoc();
    }

    @Override
    public int advance(int target) throws IOException {
      return in.advance(target);
    }

    @Override
    public long cost() {
      return in.cost();
    }
  }
}
