package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

/**
 * Sealed blocks: the fixed-width copy round-trips at every width, and a term's postings read the
 * same through whole blocks (fixed width) and the trailing partial block (vInts) at the block
 * boundaries, with freqs above one, positions, advance, a reused enum and deleted documents.
 */
public class LiveSealedBlockTest extends LuceneTestCase {
  private static final int BLOCK = LiveBlockLayout.BLOCK;

  public void testRoundTripAtEveryWidth() {
    LiveBytePool pool = new LiveBytePool();
    int[] maxima = {1, 15, 16, 255, 256, 65_535, 65_536, Integer.MAX_VALUE / (2 * BLOCK)};
    for (int maxDelta : maxima) {
      for (int maxFreq : maxima) {
        int previousDoc = random().nextBoolean() ? -1 : random().nextInt(1000);
        int[] docs = new int[BLOCK];
        int[] freqs = new int[BLOCK];
        int doc = previousDoc;
        for (int i = 0; i < BLOCK; i++) {
          doc += 1 + random().nextInt(maxDelta);
          docs[i] = doc;
          freqs[i] = 1 + random().nextInt(maxFreq);
        }
        docs[BLOCK - 1] = docs[BLOCK - 2] + maxDelta; // the largest delta, at the last place
        freqs[random().nextInt(BLOCK)] = maxFreq;
        int address = LiveSealedBlock.write(pool, previousDoc, docs, freqs);
        int[] readDocs = new int[BLOCK];
        int[] readFreqs = new int[BLOCK];
        LiveSealedBlock.readDocs(pool.slabs(), address, previousDoc, readDocs);
        LiveSealedBlock.readFreqs(pool.slabs(), address, readFreqs);
        String where = "max delta " + maxDelta + ", max freq " + maxFreq;
        assertArrayEquals(where, docs, readDocs);
        assertArrayEquals(where, freqs, readFreqs);
      }
    }
  }

  /** All freqs 1 and deltas below 16: a header byte and 4 bits per posting. */
  public void testSmallBlockTakesHalfAByteAPosting() {
    LiveBytePool pool = new LiveBytePool();
    int[] docs = new int[BLOCK];
    int[] freqs = new int[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      docs[i] = 3 * i;
      freqs[i] = 1;
    }
    int first = LiveSealedBlock.write(pool, -1, docs, freqs);
    int second = LiveSealedBlock.write(pool, -1, docs, freqs);
    assertEquals(1 + BLOCK / 2, second - first);
  }

  public void testPostingsAtBlockBoundaries() throws Exception {
    int[] sizes = {1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK, 2 * BLOCK + 1, 5 * BLOCK + 37};
    for (int size : sizes) {
      for (boolean withPositions : new boolean[] {false, true}) {
        checkPostings(size, withPositions);
      }
    }
  }

  private void checkPostings(int size, boolean withPositions) throws Exception {
    int maxDoc = size * 300;
    LiveField field =
        withPositions
            ? new LiveField("t", FieldKind.TEXT, 1, 0, maxDoc, false, new LiveBytePool())
            : new LiveField("k", FieldKind.KEYWORD, 1, 0, maxDoc, false, new LiveBytePool());
    BytesRef term = new BytesRef("w");
    BytesRef other = new BytesRef("x");
    List<Integer> docs = new ArrayList<>();
    List<int[]> positions = new ArrayList<>();
    int doc = -1;
    for (int i = 0; i < size; i++) {
      doc += 1 + (random().nextInt(5) == 0 ? random().nextInt(297) : random().nextInt(3));
      int freq = withPositions && random().nextBoolean() ? 1 + random().nextInt(20) : 1;
      int[] p = new int[freq];
      for (int j = 0, position = 0; j < freq; j++) {
        position += random().nextInt(50);
        p[j] = position;
      }
      field.postings.add(term, doc, p, freq);
      field.postings.add(other, doc, p, freq);
      field.postings.commit();
      field.recordStats(doc, 2, 2 * freq);
      docs.add(doc);
      positions.add(p);
    }
    int lastDoc = doc;
    String where = size + " postings, positions " + withPositions;
    for (int snapshot : new int[] {lastDoc + 1, 1 + docs.get(Math.max(0, size - 1 - BLOCK / 2))}) {
      TermsEnum te = new LiveTerms(field, snapshot).iterator();
      int visible = (int) docs.stream().filter(d -> d < snapshot).count();
      assertTrue(te.seekExact(term));
      assertEquals(where, visible, te.docFreq());
      long totalTermFreq = 0;
      for (int i = 0; i < visible; i++) {
        totalTermFreq += positions.get(i).length;
      }
      assertEquals(where, totalTermFreq, te.totalTermFreq());
      PostingsEnum reused = null;
      for (int flags : new int[] {PostingsEnum.NONE, PostingsEnum.FREQS, PostingsEnum.POSITIONS}) {
        PostingsEnum pe = te.postings(reused, flags);
        for (int i = 0; i < visible; i++) {
          assertEquals(where, (int) docs.get(i), pe.nextDoc());
          if (flags != PostingsEnum.NONE || random().nextInt(3) == 0) { // some blocks' freqs unread
            assertEquals(where, positions.get(i).length, pe.freq());
          }
          if (flags == PostingsEnum.POSITIONS && withPositions) {
            for (int p : positions.get(i)) {
              assertEquals(where, p, pe.nextPosition());
            }
          }
        }
        assertEquals(where, PostingsEnum.NO_MORE_DOCS, pe.nextDoc());
        // advance to random targets, some inside a block, some past whole blocks
        assertTrue(te.seekExact(random().nextBoolean() ? term : other));
        pe = te.postings(pe, flags);
        int i = 0;
        while (true) {
          int target = pe.docID() + 1 + random().nextInt(random().nextBoolean() ? 5 : 2000);
          while (i < visible && docs.get(i) < target) {
            i++;
          }
          int expected = i < visible ? docs.get(i) : PostingsEnum.NO_MORE_DOCS;
          assertEquals(where + " target " + target, expected, pe.advance(target));
          if (expected == PostingsEnum.NO_MORE_DOCS) {
            break;
          }
          assertEquals(where, positions.get(i).length, pe.freq());
          if (flags == PostingsEnum.POSITIONS && withPositions && positions.get(i).length > 0) {
            assertEquals(where, positions.get(i)[0], pe.nextPosition());
          }
          i++;
        }
        reused = pe;
        assertTrue(te.seekExact(term));
      }
    }
  }

  /** Deleted documents inside whole blocks and in the partial one are not matched. */
  public void testDeletedDocumentsInSealedBlocks() throws Exception {
    RtSchema schema = RtSchema.builder().text("body").build();
    DocumentInverter inverter =
        new DocumentInverter(schema, new StandardAnalyzer(), new BM25Similarity());
    int numDocs = 3 * BLOCK + 17;
    LiveSegment live = new LiveSegment(schema, numDocs);
    for (int i = 0; i < numDocs; i++) {
      String body = i % 2 == 0 ? "common even" : "common odd odd";
      live.add(inverter.invert(new RtDocument("d" + i, Map.of("body", body))));
    }
    DeletedDocs deletions = null;
    int deleted = 0;
    for (int doc = 0; doc < numDocs; doc++) {
      if (random().nextInt(3) == 0) {
        deletions = DeletedDocs.delete(deletions, doc, numDocs);
        deleted++;
      }
    }
    IndexSearcher searcher = new IndexSearcher(live.reader(deletions));
    assertEquals(numDocs - deleted, searcher.count(new TermQuery(new Term("body", "common"))));
    assertEquals(
        numDocs - deleted,
        searcher.search(new TermQuery(new Term("body", "common")), numDocs).scoreDocs.length);
    int oddLive = 0;
    for (int doc = 1; doc < numDocs; doc += 2) {
      oddLive += deletions == null || deletions.get(doc) ? 1 : 0;
    }
    assertEquals(oddLive, searcher.count(new TermQuery(new Term("body", "odd"))));
  }
}
