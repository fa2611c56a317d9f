package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.lucenenvm.codec.NvmPostingsFormat.MergeMode;

/**
 * The read path of a linked segment under the uses that {@link TestNvmLinkedMerge} (fresh enums,
 * one term at a time) does not make, against a copying merge of the same 3 to 5 segments: one
 * enum passed back for reuse across the terms of every field, advance straight into a later run
 * (past runs never reached), terms in only some runs, and term states kept and copied while the
 * terms enum moves on.
 */
public class TestLinkedPostingsEnum extends LuceneTestCase {

  private Directory linkedDir;
  private Directory copiedDir;
  private DirectoryReader linkedReader;
  private DirectoryReader copiedReader;
  private LeafReader linked;
  private LeafReader copied;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    int segments = TestUtil.nextInt(random(), 3, 5);
    try (Directory sources = newDirectory()) {
      TestNvmLinkedMerge.addSegments(sources, 0, segments);
      linkedDir = TestNvmLinkedMerge.copyOf(sources);
      copiedDir = TestNvmLinkedMerge.copyOf(sources);
    }
    int maxRuns = NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM;
    TestNvmLinkedMerge.forceMerge(linkedDir, MergeMode.LINK, maxRuns);
    TestNvmLinkedMerge.forceMerge(copiedDir, MergeMode.COPY, maxRuns);
    assertEquals(segments, TestNvmLinkedMerge.runCount(linkedDir));
    linkedReader = DirectoryReader.open(linkedDir);
    copiedReader = DirectoryReader.open(copiedDir);
    linked = getOnlyLeafReader(linkedReader);
    copied = getOnlyLeafReader(copiedReader);
  }

  @Override
  public void tearDown() throws Exception {
    try {
      linkedReader.close();
      copiedReader.close();
      linkedDir.close();
      copiedDir.close();
    } finally {
      super.tearDown();
    }
  }

  /**
   * One enum passed back as {@code reuse} for every term of every field: a linked enum is always
   * reused (same reader, same flags) and reads each term as a fresh enum of the copied segment.
   */
  public void testEnumReusedAcrossTermsAndFields() throws IOException {
    for (int flags : new int[] {PostingsEnum.FREQS, PostingsEnum.ALL}) {
      PostingsEnum reuse = null;
      int reusedLinked = 0;
      for (FieldInfo field : copied.getFieldInfos()) {
        if (field.getIndexOptions() == IndexOptions.NONE) {
          continue;
        }
        TermsEnum expectedTerms = copied.terms(field.name).iterator();
        TermsEnum actualTerms = linked.terms(field.name).iterator();
        for (BytesRef term = expectedTerms.next(); term != null; term = expectedTerms.next()) {
          assertEquals(term, actualTerms.next());
          String where = field.name + ":" + term.utf8ToString() + " flags " + flags;
          PostingsEnum actual = actualTerms.postings(reuse, flags);
          if (reuse instanceof LinkedPostingsEnum && actual instanceof LinkedPostingsEnum) {
            assertSame(where, reuse, actual);
            reusedLinked++;
          }
          PostingsEnum expected = expectedTerms.postings(null, flags);
          if (flags == PostingsEnum.ALL && random().nextBoolean()) {
            TestNvmLinkedMerge.assertSamePostings(where, field, expected, actual);
          } else {
            TestNvmLinkedMerge.assertSameAdvance(where, expected, actual);
          }
          reuse = actual;
        }
      }
      assertTrue("linked enums reused: " + reusedLinked, reusedLinked > 0);
    }
  }

  /**
   * Terms in every run, in every third and in one: advance from before the first doc straight to
   * a random target (often in a later run, past runs the enum never reads), then to the end, on
   * postings enums (reused) and impacts enums.
   */
  public void testAdvanceIntoLaterRuns() throws IOException {
    TermsEnum expectedTerms = copied.terms(TestNvmLinkedMerge.SEGMENT).iterator();
    TermsEnum actualTerms = linked.terms(TestNvmLinkedMerge.SEGMENT).iterator();
    PostingsEnum reuse = null;
    for (String value : new String[] {"all", "p0", "p1", "p2", "s1"}) {
      BytesRef term = new BytesRef(value);
      assertTrue(value, expectedTerms.seekExact(term));
      assertTrue(value, actualTerms.seekExact(term));
      for (int i = 0; i < 20; i++) {
        int target = random().nextInt(linked.maxDoc() + 1);
        String where = value + " advance(" + target + ")";
        PostingsEnum expected = expectedTerms.postings(null, PostingsEnum.FREQS);
        PostingsEnum actual =
            random().nextBoolean()
                ? actualTerms.impacts(PostingsEnum.FREQS)
                : (reuse = actualTerms.postings(reuse, PostingsEnum.FREQS));
        int doc = expected.advance(target);
        assertEquals(where, doc, actual.advance(target));
        while (doc != DocIdSetIterator.NO_MORE_DOCS) {
          assertEquals(where + " doc " + doc, expected.freq(), actual.freq());
          doc = expected.nextDoc();
          assertEquals(where, doc, actual.nextDoc());
        }
      }
    }
  }

  /**
   * States of every term of a field, taken while the terms enum moves on, then each copied into
   * one reused state and sought in random order: each still reads its own term.
   */
  public void testTermStatesStayIndependent() throws IOException {
    for (String name : new String[] {TestNvmLinkedMerge.SEGMENT, RandomDocs.BODY}) {
      FieldInfo field = linked.getFieldInfos().fieldInfo(name);
      List<BytesRef> terms = new ArrayList<>();
      List<TermState> states = new ArrayList<>();
      TermsEnum walk = linked.terms(name).iterator();
      for (BytesRef term = walk.next(); term != null; term = walk.next()) {
        terms.add(BytesRef.deepCopyOf(term));
        states.add(walk.termState());
      }
      assertTrue(states.get(0) instanceof LinkedTermState);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < terms.size(); i++) {
        order.add(i);
      }
      Collections.shuffle(order, random());
      TermState reused = states.get(order.get(0)).clone();
      TermsEnum expectedTerms = copied.terms(name).iterator();
      for (int i : order.subList(0, Math.min(order.size(), 200))) {
        BytesRef term = terms.get(i);
        String where = name + ":" + term.utf8ToString();
        TermState state = states.get(i);
        if (random().nextBoolean()) {
          reused.copyFrom(state);
          state = reused;
        }
        TermsEnum actualTerms = linked.terms(name).iterator();
        actualTerms.seekExact(term, state);
        assertTrue(where, expectedTerms.seekExact(term));
        assertEquals(where, expectedTerms.docFreq(), actualTerms.docFreq());
        assertEquals(where, expectedTerms.totalTermFreq(), actualTerms.totalTermFreq());
        TestNvmLinkedMerge.assertSamePostings(
            where,
            field,
            expectedTerms.postings(null, PostingsEnum.ALL),
            actualTerms.postings(null, PostingsEnum.ALL));
      }
    }
  }
}
