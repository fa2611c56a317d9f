package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersDataInput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * LinkedTermMetadata ({@link LinkedTermState#write} and {@link LinkedTermState#read}) on its own:
 * terms blocks of random terms in random runs decode to what was written, through a state reused
 * across each block as the terms dictionary does, and cloned in the middle of a block; damaged
 * metadata is reported.
 */
public class TestLinkedTermMetadata extends LuceneTestCase {

  public void testBlocksRoundTrip() throws IOException {
    Random random = random();
    int runCount = TestUtil.nextInt(random, 1, 12);
    FieldInfo field = randomField(random);
    boolean hasFreqs = field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    long[][] pointers = new long[runCount][4];
    List<List<LinkedTermState>> blocks = new ArrayList<>();
    for (int b = TestUtil.nextInt(random, 1, 20); b > 0; b--) {
      List<LinkedTermState> block = new ArrayList<>();
      for (int t = TestUtil.nextInt(random, 1, 50); t > 0; t--) {
        block.add(randomTerm(random, runCount, hasFreqs, pointers));
      }
      blocks.add(block);
    }

    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    BlockRunPointers previous = new BlockRunPointers();
    List<LinkedTermState> expected = new ArrayList<>();
    for (List<LinkedTermState> block : blocks) {
      previous.reset(runCount);
      for (LinkedTermState term : block) {
        expected.add(term.clone());
        term.write(out, field, previous, runCount);
      }
    }

    ByteBuffersDataInput in = out.toDataInput();
    int i = 0;
    for (List<LinkedTermState> block : blocks) {
      LinkedTermState decoded = new LinkedTermState();
      for (int t = 0; t < block.size(); t++) {
        if (t > 0 && random.nextInt(8) == 0) {
          decoded = random.nextBoolean() ? decoded.clone() : copyOf(decoded);
        }
        LinkedTermState want = expected.get(i++);
        decoded.docFreq = want.docFreq;
        decoded.totalTermFreq = want.totalTermFreq;
        decoded.read(in, field, t == 0, runCount);
        assertSameRuns(field, want, decoded);
      }
    }
    assertEquals("all metadata read", out.size(), in.position());
  }

  public void testRunIndexBeyondRunTableIsReported() throws IOException {
    LinkedTermState term = new LinkedTermState();
    NvmTermState run = term.addRun(3);
    run.docFreq = term.docFreq = 1;
    run.totalTermFreq = term.totalTermFreq = 1;
    run.docFP = 100;
    // Three runs take two bits, as four do: the run index 3 is read, and is past the table.
    CorruptIndexException e = readWrongly(term, 4, 3, 1);
    assertTrue(e.getMessage(), e.getMessage().contains("run index 3 of 3"));
  }

  public void testRunsHoldingMoreThanTheTermAreReported() throws IOException {
    LinkedTermState term = new LinkedTermState();
    for (int r = 0; r < 2; r++) {
      NvmTermState run = term.addRun(r);
      run.docFreq = 5;
      run.totalTermFreq = 5;
    }
    term.docFreq = 10;
    term.totalTermFreq = 10;
    // The terms dictionary says 5 documents, the runs 5 + 5.
    CorruptIndexException e = readWrongly(term, 2, 2, 5);
    assertTrue(e.getMessage(), e.getMessage().contains("holds docFreq"));
  }

  /**
   * Writes {@code term} as the first of a block of a segment of {@code runCount} runs, reads it
   * back as a term of {@code readDocFreq} documents (and as many positions) in a segment of
   * {@code readRunCount} runs, and returns the exception that reading throws.
   */
  private static CorruptIndexException readWrongly(
      LinkedTermState term, int runCount, int readRunCount, int readDocFreq) throws IOException {
    FieldInfo field = randomField(random());
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    BlockRunPointers previous = new BlockRunPointers();
    previous.reset(runCount);
    term.write(out, field, previous, runCount);
    LinkedTermState decoded = new LinkedTermState();
    decoded.docFreq = readDocFreq;
    decoded.totalTermFreq = readDocFreq;
    return expectThrows(
        CorruptIndexException.class,
        () -> decoded.read(out.toDataInput(), field, true, readRunCount));
  }

  private static LinkedTermState copyOf(LinkedTermState state) {
    LinkedTermState copy = new LinkedTermState();
    copy.copyFrom(state);
    return copy;
  }

  /**
   * A term in a random nonempty set of runs, with pointers past {@code pointers}' (each run's last
   * doc, skip, pos and pay pointers, advanced to the term's). Terms of more than BlockSize docs
   * have a skip pointer; the others a meaningless one, as a source's state may.
   */
  private static LinkedTermState randomTerm(
      Random random, int runCount, boolean hasFreqs, long[][] pointers) {
    LinkedTermState term = new LinkedTermState();
    for (int run = 0; run < runCount; run++) {
      boolean lastChance = run == runCount - 1 && term.count == 0;
      if (lastChance == false && random.nextInt(runCount) != 0) {
        continue;
      }
      NvmTermState state = term.addRun(run);
      state.docFreq =
          random.nextInt(4) == 0
              ? TestUtil.nextInt(random, 1, 3 * NvmPostingsFormat.BLOCK_SIZE)
              : TestUtil.nextInt(random, 1, 3);
      state.totalTermFreq =
          hasFreqs && random.nextBoolean()
              ? state.docFreq + random.nextInt(1000)
              : state.docFreq;
      long[] last = pointers[run];
      last[0] += random.nextInt(1 << TestUtil.nextInt(random, 1, 20));
      last[2] += random.nextInt(1 << TestUtil.nextInt(random, 1, 20));
      last[3] += random.nextInt(100);
      state.docFP = last[0];
      if (state.docFreq > NvmPostingsFormat.BLOCK_SIZE) {
        last[1] += 64 * TestUtil.nextInt(random, 1, 100);
        state.skipFP = last[1];
      } else {
        state.skipFP = random.nextLong();
      }
      state.posFP = last[2];
      state.payFP = last[3];
      term.docFreq += state.docFreq;
      term.totalTermFreq += state.totalTermFreq;
    }
    return term;
  }

  private static void assertSameRuns(
      FieldInfo field, LinkedTermState expected, LinkedTermState actual) {
    boolean hasPositions =
        field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    assertEquals(expected.toString(), expected.count, actual.count);
    for (int i = 0; i < expected.count; i++) {
      String where = "run " + i + " of " + expected + ", read " + actual;
      NvmTermState want = expected.states[i];
      NvmTermState got = actual.states[i];
      assertEquals(where, expected.runs[i], actual.runs[i]);
      assertEquals(where, want.docFreq, got.docFreq);
      assertEquals(where, want.totalTermFreq, got.totalTermFreq);
      assertEquals(where, want.docFP, got.docFP);
      if (want.docFreq > NvmPostingsFormat.BLOCK_SIZE) {
        assertEquals(where, want.skipFP, got.skipFP);
      }
      assertEquals(where, hasPositions ? want.posFP : 0, got.posFP);
      assertEquals(where, hasPositions && field.hasPayloads() ? want.payFP : 0, got.payFP);
    }
  }

  private static FieldInfo randomField(Random random) {
    IndexOptions[] indexed = {
      IndexOptions.DOCS,
      IndexOptions.DOCS_AND_FREQS,
      IndexOptions.DOCS_AND_FREQS_AND_POSITIONS,
      IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS
    };
    IndexOptions options = indexed[random.nextInt(indexed.length)];
    boolean payloads =
        options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0 && random.nextBoolean();
    return new FieldInfo(
        "body",
        0,
        false,
        false,
        payloads,
        options,
        DocValuesType.NONE,
        DocValuesSkipIndexType.NONE,
        -1,
        Map.of(),
        0,
        0,
        0,
        0,
        VectorEncoding.FLOAT32,
        VectorSimilarityFunction.EUCLIDEAN,
        false,
        false);
  }
}
