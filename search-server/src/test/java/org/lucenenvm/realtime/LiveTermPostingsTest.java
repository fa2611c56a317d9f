package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/**
 * The live term hash finds every term (short, long, binary; many sharing a hash tag; held inline in
 * the key or in the pool) and the live terms iterate and seek in Lucene's unsigned byte order; a
 * sealed block's summary keeps its competitive impacts.
 */
public class LiveTermPostingsTest extends LuceneTestCase {

  /**
   * A sealed block keeps its competitive (freq, norm) pairs, at most {@value
   * LiveBlockLayout#IMPACT_PAIRS} of them: here every block holds eight (freq f with norm 10f,
   * none dominating another), which merge in runs of two into the higher freq with the lower norm.
   */
  public void testSealedBlockImpactsMergeIntoLooserPairs() throws Exception {
    int docs = 2 * LiveBlockLayout.BLOCK;
    LiveField field = new LiveField("body", FieldKind.TEXT, 1, 0, docs, false, new LiveBytePool());
    BytesRef term = new BytesRef("t");
    for (int doc = 0; doc < docs; doc++) {
      int freq = 1 + doc % 8;
      field.norms.set(doc, 10L * freq);
      int[] positions = new int[freq];
      for (int i = 0; i < freq; i++) {
        positions[i] = i;
      }
      field.postings.add(term, doc, positions, freq);
      field.postings.commit();
      field.recordStats(doc, 1, freq);
    }
    TermsEnum te = new LiveTerms(field, docs).iterator();
    assertTrue(te.seekExact(term));
    ImpactsEnum impacts = te.impacts(PostingsEnum.FREQS);
    for (int doc = impacts.nextDoc(); doc != PostingsEnum.NO_MORE_DOCS; doc = impacts.nextDoc()) {
      impacts.advanceShallow(doc);
      FreqAndNormBuffer pairs = impacts.getImpacts().getImpacts(0);
      assertEquals("doc " + doc, 4, pairs.size);
      for (int i = 0; i < 4; i++) {
        assertEquals("doc " + doc + " pair " + i, 2 * (i + 1), pairs.freqs[i]);
        assertEquals("doc " + doc + " pair " + i, 10L * (2 * i + 1), pairs.norms[i]);
      }
      int freq = impacts.freq();
      long norm = 10L * freq;
      boolean dominated = false;
      for (int i = 0; i < pairs.size; i++) {
        dominated |= pairs.freqs[i] >= freq && Long.compareUnsigned(pairs.norms[i], norm) <= 0;
      }
      assertTrue("doc " + doc, dominated);
    }
  }

  public void testFindAndSortedIteration() throws Exception {
    int docs = 200;
    LiveField field =
        new LiveField("k", FieldKind.KEYWORD, 1, 0, docs, false, new LiveBytePool());
    Map<BytesRef, Integer> ids = new HashMap<>();
    Map<BytesRef, List<Integer>> docsOf = new HashMap<>();
    int numTerms = atLeast(5_000);
    List<BytesRef> terms = new ArrayList<>();
    for (int i = 0; i < numTerms; i++) {
      terms.add(randomTerm());
    }
    for (int doc = 0; doc < docs; doc++) {
      TreeSet<BytesRef> inDoc = new TreeSet<>();
      for (int j = 0; j < 40; j++) {
        inDoc.add(terms.get(random().nextInt(terms.size())));
      }
      for (BytesRef term : inDoc) {
        int id = field.postings.add(term, doc, null, 1);
        Integer previous = ids.putIfAbsent(BytesRef.deepCopyOf(term), id);
        assertTrue(previous == null || previous == id);
        docsOf.computeIfAbsent(BytesRef.deepCopyOf(term), t -> new ArrayList<>()).add(doc);
      }
      field.postings.commit();
      field.recordStats(doc, inDoc.size(), inDoc.size());
    }
    for (Map.Entry<BytesRef, Integer> e : ids.entrySet()) {
      assertEquals(e.getKey().toString(), (int) e.getValue(), field.terms.find(e.getKey()));
    }
    for (int i = 0; i < 1_000; i++) {
      BytesRef probe = randomTerm();
      if (!ids.containsKey(probe)) {
        assertEquals(-1, field.terms.find(probe));
      }
    }

    TreeSet<BytesRef> expected = new TreeSet<>(docsOf.keySet());
    LiveTerms liveTerms = new LiveTerms(field, docs);
    assertEquals(expected.size(), liveTerms.size());
    TermsEnum te = liveTerms.iterator();
    long ord = 0;
    for (BytesRef term : expected) {
      assertEquals(term, te.next());
      assertEquals(ord++, te.ord());
      assertEquals(docsOf.get(term).size(), te.docFreq());
      PostingsEnum pe = te.postings(null, PostingsEnum.NONE);
      for (int doc : docsOf.get(term)) {
        assertEquals(doc, pe.nextDoc());
      }
      assertEquals(PostingsEnum.NO_MORE_DOCS, pe.nextDoc());
    }
    assertNull(te.next());

    for (int i = 0; i < 1_000; i++) {
      BytesRef probe = randomTerm();
      BytesRef ceiling = expected.ceiling(probe);
      TermsEnum.SeekStatus status = te.seekCeil(probe);
      if (ceiling == null) {
        assertEquals(TermsEnum.SeekStatus.END, status);
      } else {
        assertEquals(ceiling.equals(probe) ? TermsEnum.SeekStatus.FOUND : TermsEnum.SeekStatus.NOT_FOUND, status);
        assertEquals(ceiling, te.term());
        BytesRef next = expected.higher(ceiling);
        assertEquals(next, te.next());
      }
    }
  }

  public void testSnapshotSeesOnlyItsDocuments() throws Exception {
    LiveField field = new LiveField("k", FieldKind.KEYWORD, 1, 0, 4, false, new LiveBytePool());
    field.postings.add(new BytesRef("b"), 0, null, 1);
    field.postings.commit();
    field.recordStats(0, 1, 1);
    field.postings.add(new BytesRef("a"), 1, null, 1);
    field.postings.commit();
    field.recordStats(1, 1, 1);
    TermsEnum te = new LiveTerms(field, 1).iterator();
    assertEquals(new BytesRef("b"), te.next());
    assertNull(te.next());
    assertEquals(TermsEnum.SeekStatus.NOT_FOUND, te.seekCeil(new BytesRef("a")));
    assertEquals(new BytesRef("b"), te.term());
  }

  /**
   * A term state positions an enum of the same snapshot without a lookup (same postings and
   * statistics); one of an older snapshot is taken as a plain seek there.
   */
  public void testTermStateOfTheSameSnapshot() throws Exception {
    int docs = 3 * LiveBlockLayout.BLOCK + 5;
    LiveField field = new LiveField("t", FieldKind.TEXT, 1, 0, docs, false, new LiveBytePool());
    BytesRef term = new BytesRef("w");
    for (int doc = 0; doc < docs; doc++) {
      int freq = 1 + doc % 3;
      int[] positions = new int[freq];
      for (int i = 0; i < freq; i++) {
        positions[i] = 2 * i;
      }
      field.postings.add(term, doc, positions, freq);
      field.postings.commit();
      field.recordStats(doc, 1, freq);
    }
    TermsEnum older = new LiveTerms(field, docs - 1).iterator();
    assertTrue(older.seekExact(term));
    TermsEnum looked = new LiveTerms(field, docs).iterator();
    assertTrue(looked.seekExact(term));
    long totalTermFreq = looked.totalTermFreq();
    for (TermsEnum source : List.of(looked, older)) {
      TermsEnum te = new LiveTerms(field, docs).iterator();
      te.seekExact(term, source.termState());
      assertEquals(term, te.term());
      assertEquals(docs, te.docFreq());
      assertEquals(totalTermFreq, te.totalTermFreq());
      PostingsEnum pe = te.postings(null, PostingsEnum.FREQS);
      for (int doc = 0; doc < docs; doc++) {
        assertEquals(doc, pe.nextDoc());
        assertEquals(1 + doc % 3, pe.freq());
      }
      assertEquals(PostingsEnum.NO_MORE_DOCS, pe.nextDoc());
    }
  }

  public void testPositionsReadPartlySkipTheRest() throws Exception {
    int docs = atLeast(500);
    LiveField field = new LiveField("t", FieldKind.TEXT, 1, 0, docs, false, new LiveBytePool());
    BytesRef term = new BytesRef("w");
    List<int[]> expected = new ArrayList<>();
    for (int doc = 0; doc < docs; doc++) {
      int freq = random().nextBoolean() ? 1 : 1 + random().nextInt(40);
      int[] positions = new int[freq];
      int position = random().nextInt(3);
      for (int i = 0; i < freq; i++) {
        position += random().nextInt(random().nextBoolean() ? 4 : 40_000);
        positions[i] = position;
      }
      field.postings.add(term, doc, positions, freq);
      field.postings.commit();
      field.norms.set(doc, 1 + random().nextInt(100));
      field.recordStats(doc, 1, freq);
      expected.add(positions);
    }
    TermsEnum te = new LiveTerms(field, docs).iterator();
    assertTrue(te.seekExact(term));
    PostingsEnum pe = te.postings(null, PostingsEnum.POSITIONS);
    for (int doc = 0; doc < docs; doc++) {
      if (random().nextInt(4) == 0) {
        continue; // skipped below by advance
      }
      assertEquals(doc, pe.advance(doc));
      int[] positions = expected.get(doc);
      assertEquals(positions.length, pe.freq());
      int read = random().nextInt(positions.length + 1);
      for (int i = 0; i < read; i++) {
        assertEquals("doc " + doc + " position " + i, positions[i], pe.nextPosition());
      }
    }
  }

  public void testTermsDifferingInLengthOrTrailingBytesStayApart() throws Exception {
    LiveField field = new LiveField("k", FieldKind.KEYWORD, 1, 0, 1, false, new LiveBytePool());
    List<BytesRef> terms =
        List.of(
            new BytesRef(new byte[0]),
            new BytesRef(new byte[] {0}),
            new BytesRef(new byte[] {0, 0}),
            new BytesRef(new byte[] {(byte) 0xFF}),
            new BytesRef(new byte[] {-1, -1, -1, -1, -1, -1, -1}),
            new BytesRef(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}),
            new BytesRef("abcdef"),
            new BytesRef("abcdefg"),
            new BytesRef("abcdefg\0"),
            new BytesRef("abcdefgh"));
    List<Integer> ids = new ArrayList<>();
    for (BytesRef term : new TreeSet<>(terms)) {
      ids.add(field.postings.add(term, 0, null, 1));
    }
    field.postings.commit();
    List<BytesRef> sorted = new ArrayList<>(new TreeSet<>(terms));
    for (int i = 0; i < sorted.size(); i++) {
      BytesRef term = sorted.get(i);
      byte[] padded = new byte[term.length + 3]; // the same bytes at an offset
      System.arraycopy(term.bytes, term.offset, padded, 2, term.length);
      assertEquals(term.toString(), (int) ids.get(i), field.terms.find(term));
      assertEquals(term.toString(), (int) ids.get(i), field.terms.find(new BytesRef(padded, 2, term.length)));
    }
    assertEquals(-1, field.terms.find(new BytesRef("abcdeg")));
    assertEquals(-1, field.terms.find(new BytesRef(new byte[] {0, 0, 0})));

    // Terms read back through one reused BytesRef, inline (up to 7 bytes) and pool terms mixed:
    // decoding an inline term never writes into a pool slab the BytesRef pointed at before.
    BytesRef reused = new BytesRef();
    for (int round = 0; round < 3; round++) {
      for (int i : random().ints(3L * sorted.size(), 0, sorted.size()).toArray()) {
        assertEquals(sorted.get(i), field.terms.term(ids.get(i), reused));
      }
    }
    for (int i = 0; i < sorted.size(); i++) {
      BytesRef term = sorted.get(i);
      assertEquals(term, field.terms.term(ids.get(i)));
      assertEquals(
          term.toString(),
          term.length <= LiveBlockLayout.INLINE_BYTES,
          LiveBlockLayout.isInline(field.terms.key(ids.get(i))));
    }
    TermsEnum te = new LiveTerms(field, 1).iterator();
    for (BytesRef term : sorted) {
      assertEquals(term, te.next());
      assertEquals(1, te.docFreq());
    }
    assertNull(te.next());
  }

  /**
   * A short term's first posting of freq 1 takes no slice (it is held in the term table) until a
   * second posting moves it into one; a failed add that moved it rolls back to the posting held
   * inline; a posting with more than one position, or of a long term, starts a slice right away.
   * Every step reads back as written, with and without positions.
   */
  public void testPostingHeldInlineUntilASecondOne() throws Exception {
    for (FieldKind kind : List.of(FieldKind.KEYWORD, FieldKind.TEXT)) {
      LiveField field = new LiveField("f", kind, 1, 0, 8, false, new LiveBytePool());
      LiveTermPostings postings = field.postings;
      BytesRef shortTerm = new BytesRef("t");
      int id = postings.add(shortTerm, 2, new int[] {7}, 1);
      postings.commit();
      assertTrue(kind + ": held inline", field.terms.start(id) < 0);
      assertPostings(field, shortTerm, 8, new int[] {2}, new int[][] {{7}});

      postings.add(shortTerm, 5, new int[] {3}, 1);
      assertTrue(kind + ": moved into a slice", field.terms.start(id) >= 0);
      postings.rollback();
      assertTrue(kind + ": inline again", field.terms.start(id) < 0);
      assertEquals(1, field.terms.state(id) >>> 32);
      assertPostings(field, shortTerm, 8, new int[] {2}, new int[][] {{7}});

      postings.add(shortTerm, 5, new int[] {3}, 1);
      postings.commit();
      assertTrue(field.terms.start(id) >= 0);
      assertPostings(field, shortTerm, 8, new int[] {2, 5}, new int[][] {{7}, {3}});
      assertPostings(field, shortTerm, 5, new int[] {2}, new int[][] {{7}});

      BytesRef longTerm = new BytesRef("a longer term");
      int longId = postings.add(longTerm, 3, new int[] {1}, 1);
      postings.commit();
      assertTrue(field.terms.start(longId) >= 0);
      assertPostings(field, longTerm, 8, new int[] {3}, new int[][] {{1}});
      if (kind == FieldKind.TEXT) {
        BytesRef twice = new BytesRef("u");
        int twiceId = postings.add(twice, 4, new int[] {1, 9}, 2);
        postings.commit();
        assertTrue(field.terms.start(twiceId) >= 0);
        assertPostings(field, twice, 8, new int[] {4}, new int[][] {{1, 9}});
      }
    }
  }

  /** The postings of {@code term} below {@code maxDoc} are {@code docs}, with {@code positions} where the field has them. */
  private static void assertPostings(
      LiveField field, BytesRef term, int maxDoc, int[] docs, int[][] positions) throws Exception {
    TermsEnum te = new LiveTerms(field, maxDoc).iterator();
    assertTrue(term.utf8ToString(), te.seekExact(term));
    assertEquals(docs.length, te.docFreq());
    PostingsEnum pe = te.postings(null, PostingsEnum.POSITIONS);
    for (int i = 0; i < docs.length; i++) {
      assertEquals(docs[i], pe.nextDoc());
      if (field.hasPositions()) {
        assertEquals(positions[i].length, pe.freq());
        for (int position : positions[i]) {
          assertEquals(position, pe.nextPosition());
        }
      }
    }
    assertEquals(PostingsEnum.NO_MORE_DOCS, pe.nextDoc());
  }

  private static BytesRef randomTerm() {
    return switch (random().nextInt(4)) {
      case 0 -> new BytesRef(TestUtil.randomSimpleString(random(), 1, 8));
      case 1 -> new BytesRef(TestUtil.randomUnicodeString(random(), 12));
      case 2 -> new BytesRef(TestUtil.randomSimpleString(random(), 130, 300));
      default -> {
        byte[] bytes = new byte[1 + random().nextInt(6)];
        random().nextBytes(bytes);
        yield new BytesRef(bytes);
      }
    };
  }
}
