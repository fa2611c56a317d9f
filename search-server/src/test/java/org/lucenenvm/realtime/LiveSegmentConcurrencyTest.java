package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

/**
 * Readers race the single writer (which also fails some adds half-way): every snapshot sees
 * exactly the docs below its fence, with doc freqs and hit counts equal to those of that prefix.
 */
public class LiveSegmentConcurrencyTest extends LuceneTestCase {
  private static final RtSchema SCHEMA =
      RtSchema.builder().text("title").text("body").keyword("tag").stored("url").build();
  private static final String[] WORDS = {"w0x", "w1", "w2", "w3", "w5", "w8", "w1z"};

  public void testSnapshotsWhileWriting() throws Exception {
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());
    int numDocs = atLeast(3000);
    List<InvertedDocument> docs = new ArrayList<>();
    int[][] dfPrefix = new int[WORDS.length][numDocs + 1];
    for (int i = 0; i < numDocs; i++) {
      InvertedDocument doc = inverter.invert(TestCorpus.randomDocument(random(), "d" + i));
      docs.add(doc);
      for (int w = 0; w < WORDS.length; w++) {
        dfPrefix[w][i + 1] = dfPrefix[w][i] + (hasBodyTerm(doc, WORDS[w]) ? 1 : 0);
      }
    }
    LiveSegment live = new LiveSegment(SCHEMA, numDocs);
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger checkedMidway = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Thread reader =
          new Thread(
              () -> {
                try {
                  while (!done.get()) {
                    LiveLeafReader snapshot = live.reader(null);
                    int maxDoc = snapshot.maxDoc();
                    if (maxDoc == 0) {
                      continue; // IndexSearcher refuses an empty leaf; the engine skips them too
                    }
                    if (maxDoc < numDocs) {
                      checkedMidway.incrementAndGet();
                    }
                    Terms terms = snapshot.terms("body");
                    IndexSearcher searcher = new IndexSearcher(snapshot);
                    for (int w = 0; w < WORDS.length; w++) {
                      int expected = dfPrefix[w][maxDoc];
                      int df = 0;
                      if (terms != null) {
                        TermsEnum te = terms.iterator();
                        df = te.seekExact(new BytesRef(WORDS[w])) ? te.docFreq() : 0;
                      }
                      assertEquals(WORDS[w] + " below " + maxDoc, expected, df);
                      assertEquals(expected, searcher.count(new TermQuery(new Term("body", WORDS[w]))));
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      reader.start();
      readers.add(reader);
    }
    try {
      for (int i = 0; i < docs.size(); i++) {
        InvertedDocument doc = docs.get(i);
        if (i % 500 == 0) {
          Thread.sleep(1); // let the readers in while the segment grows
        }
        if (random().nextInt(5) == 0) {
          InvertedDocument broken = LiveSegmentTest.breakOneTerm(random(), doc);
          if (broken != null) {
            expectThrows(IllegalArgumentException.class, () -> live.add(broken));
          }
        }
        live.add(doc);
      }
    } finally {
      done.set(true);
      for (Thread reader : readers) {
        reader.join();
      }
    }
    if (failure.get() != null) {
      throw new AssertionError("reader failed", failure.get());
    }
    assertTrue("no snapshot was taken while the writer was adding", checkedMidway.get() > 0);
  }

  private static boolean hasBodyTerm(InvertedDocument doc, String word) {
    for (InvertedField f : doc.fields()) {
      if (f.name().equals("body")) {
        for (BytesRef term : f.terms()) {
          if (term.utf8ToString().equals(word)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
