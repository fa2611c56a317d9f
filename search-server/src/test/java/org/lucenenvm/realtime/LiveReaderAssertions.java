package org.lucenenvm.realtime;

import static org.apache.lucene.tests.util.LuceneTestCase.assertEquals;
import static org.apache.lucene.tests.util.LuceneTestCase.assertNotNull;
import static org.apache.lucene.tests.util.LuceneTestCase.assertNull;
import static org.apache.lucene.tests.util.LuceneTestCase.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.util.BytesRef;

/** Compares a live leaf reader with a leaf IndexWriter built from the same documents. */
final class LiveReaderAssertions {
  private LiveReaderAssertions() {}

  /** Terms, statistics, docs, freqs, positions and (on the live side) impact upper bounds. */
  static void assertSamePostings(Random r, LeafReader expected, LeafReader actual, String... fields)
      throws IOException {
    assertEquals(expected.maxDoc(), actual.maxDoc());
    for (String field : fields) {
      Terms e = expected.terms(field);
      Terms a = actual.terms(field);
      if (e == null) {
        assertNull(field, a);
        continue;
      }
      assertNotNull(field, a);
      assertEquals(field, e.size(), a.size());
      assertEquals(field, e.getDocCount(), a.getDocCount());
      assertEquals(field, e.getSumDocFreq(), a.getSumDocFreq());
      assertEquals(field, e.getSumTotalTermFreq(), a.getSumTotalTermFreq());
      TermsEnum et = e.iterator();
      TermsEnum at = a.iterator();
      NumericDocValues norms = actual.getNormValues(field);
      BytesRef term;
      while ((term = et.next()) != null) {
        assertEquals(field, term, at.next());
        String where = field + ":" + term.utf8ToString();
        assertEquals(where, et.docFreq(), at.docFreq());
        assertEquals(where, et.totalTermFreq(), at.totalTermFreq());
        assertSameDocs(where, et.postings(null, PostingsEnum.POSITIONS), at.postings(null, PostingsEnum.POSITIONS), e.hasPositions());
        assertAdvanceAgrees(r, where, et.postings(null, PostingsEnum.FREQS), at.postings(null, PostingsEnum.FREQS));
        assertImpactsBound(r, where, at.impacts(PostingsEnum.FREQS), actual.getNormValues(field));
        TermsEnum exact = a.iterator();
        assertTrue(where, exact.seekExact(term));
        assertEquals(where, et.docFreq(), exact.docFreq());
        assertEquals(where, et.totalTermFreq(), exact.totalTermFreq());
      }
      assertNull(field, at.next());
      if (norms != null) {
        NumericDocValues en = expected.getNormValues(field);
        for (int doc = en.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = en.nextDoc()) {
          assertEquals(field, doc, norms.advance(doc));
          assertEquals(field, en.longValue(), norms.longValue());
        }
      }
    }
  }

  private static void assertSameDocs(
      String where, PostingsEnum e, PostingsEnum a, boolean positions) throws IOException {
    for (int doc = e.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = e.nextDoc()) {
      assertEquals(where, doc, a.nextDoc());
      assertEquals(where, e.freq(), a.freq());
      if (positions) {
        for (int i = 0; i < e.freq(); i++) {
          assertEquals(where + " doc " + doc, e.nextPosition(), a.nextPosition());
        }
      }
    }
    assertEquals(where, DocIdSetIterator.NO_MORE_DOCS, a.nextDoc());
  }

  /** Every (doc, freq) from the current doc up to {@code upTo}, through nextPostings. */
  private static List<String> drain(PostingsEnum postings, int upTo) throws IOException {
    List<String> all = new ArrayList<>();
    DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
    do {
      postings.nextPostings(upTo, buffer);
      for (int i = 0; i < buffer.size; i++) {
        all.add(buffer.docs[i] + ":" + buffer.features[i]);
      }
    } while (buffer.size > 0);
    return all;
  }

  private static void assertAdvanceAgrees(Random r, String where, PostingsEnum e, PostingsEnum a)
      throws IOException {
    int doc = -1;
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      int step = r.nextInt(3);
      if (step == 0 && doc != -1) {
        int upTo = doc + 1 + r.nextInt(300);
        assertEquals(where + " postings before " + upTo, drain(e, upTo), drain(a, upTo));
        doc = e.docID();
        assertEquals(where + " after postings before " + upTo, doc, a.docID());
      } else if (step == 1) {
        doc = e.nextDoc();
        assertEquals(where, doc, a.nextDoc());
      } else {
        int target = doc + 1 + r.nextInt(300);
        doc = e.advance(target);
        assertEquals(where + " advance(" + target + ")", doc, a.advance(target));
      }
      if (doc != DocIdSetIterator.NO_MORE_DOCS) {
        assertEquals(where, e.freq(), a.freq());
      }
    }
  }

  /**
   * Every doc's (freq, norm) is dominated by an impact of the level covering it, also when the
   * enum is moved by advanceShallow + advance as block-max scorers do.
   */
  private static void assertImpactsBound(
      Random r, String where, ImpactsEnum impacts, NumericDocValues norms) throws IOException {
    int doc = impacts.nextDoc();
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      Impacts levels = impacts.getImpacts();
      assertTrue(where, levels.getDocIdUpTo(0) >= doc);
      long norm = norms != null && norms.advanceExact(doc) ? norms.longValue() : 1L;
      FreqAndNormBuffer buffer = levels.getImpacts(0);
      boolean dominated = false;
      for (int i = 0; i < buffer.size; i++) {
        dominated |=
            buffer.freqs[i] >= impacts.freq() && Long.compareUnsigned(buffer.norms[i], norm) <= 0;
      }
      assertTrue(where + " doc " + doc + " freq " + impacts.freq() + " norm " + norm, dominated);
      if (r.nextInt(4) == 0) {
        int target = doc + 1 + r.nextInt(400);
        impacts.advanceShallow(target);
        assertTrue(where, impacts.getImpacts().getDocIdUpTo(0) >= target);
        doc = impacts.advance(target);
      } else {
        doc = impacts.nextDoc();
      }
    }
  }

  /**
   * Top 10 of random queries: the live searcher with block-max skipping (total hits counted up to
   * 10 only) equals its exhaustive run and IndexWriter's, docs and scores.
   */
  static void assertSameTopHits(
      Random r, IndexSearcher expected, IndexSearcher actual, QueryParser parser, int queries)
      throws IOException {
    for (int q = 0; q < queries; q++) {
      Query query = TestCorpus.randomQuery(r, parser);
      TopDocs exhaustive = actual.search(query, new TopScoreDocCollectorManager(10, Integer.MAX_VALUE));
      TopDocs skipping = actual.search(query, new TopScoreDocCollectorManager(10, 10));
      TopDocs reference = expected.search(query, new TopScoreDocCollectorManager(10, Integer.MAX_VALUE));
      assertEquals(query.toString(), reference.totalHits, exhaustive.totalHits);
      assertSameHits(query + " exhaustive", reference, exhaustive);
      assertSameHits(query + " block-max", reference, skipping);
    }
  }

  private static void assertSameHits(String where, TopDocs e, TopDocs a) {
    assertEquals(where, e.scoreDocs.length, a.scoreDocs.length);
    for (int i = 0; i < e.scoreDocs.length; i++) {
      assertEquals(where, e.scoreDocs[i].doc, a.scoreDocs[i].doc);
      assertEquals(where, e.scoreDocs[i].score, a.scoreDocs[i].score, 0f);
    }
  }
}
