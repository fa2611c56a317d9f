package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.analysis.MockTokenizer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/**
 * The bulk paths of {@link NvmPostingsEnum} ({@code nextPostings}, {@code advance}, {@code
 * intoBitSet}, {@code docIDRunEnd}, impacts on both levels) against {@link Lucene104Codec} on the
 * same random documents, on a memory-segment-backed directory ({@link MMapDirectory}), on one
 * whose files are mapped in many small chunks (as {@code NvmDirectory} files in several extents:
 * bulk copies per chunk, value by value where a block crosses chunks) and on one whose inputs are
 * only {@code RandomAccessInput} ({@link ByteBuffersDirectory}). The terms cover
 * every block kind: bit-set blocks (dense and sparse bits), packed blocks, a long run of
 * consecutive doc IDs, multi-block terms with a partial tail, and single-block terms.
 */
public class TestNvmBulkPostings extends LuceneTestCase {
  private static final String FIELD = "f";
  private static final int NUM_DOCS = 20_000;
  private static final int RUN_START = 1_000;
  private static final int RUN_END = 9_000;

  /** Chunk size of the chunked MMapDirectory: a few blocks of Int32 doc IDs. */
  private static final int CHUNK_SIZE = 1 << 12;

  /** Term and probability that a document holds it; "run" is in exactly [RUN_START, RUN_END). */
  private static final String[] TERMS = {"dense", "bits15", "medium", "small", "sparse", "run"};

  private static final double[] PROBABILITIES = {0.9, 0.15, 0.08, 0.016, 0.005, 0};

  private static Directory luceneDir;
  private static Directory mmapDir;
  private static Directory chunkedDir;
  private static Directory heapDir;
  private static DirectoryReader luceneReader;
  private static DirectoryReader mmapReader;
  private static DirectoryReader chunkedReader;
  private static DirectoryReader heapReader;

  @BeforeClass
  public static void indexAll() throws IOException {
    long seed = random().nextLong();
    luceneDir = new ByteBuffersDirectory();
    mmapDir = new MMapDirectory(createTempDir("nvm-bulk"));
    chunkedDir = new MMapDirectory(createTempDir("nvm-bulk-chunked"), CHUNK_SIZE);
    heapDir = new ByteBuffersDirectory();
    write(luceneDir, new Lucene104Codec(), seed);
    write(mmapDir, new NvmCodec(), seed);
    write(chunkedDir, new NvmCodec(), seed);
    write(heapDir, new NvmCodec(), seed);
    luceneReader = DirectoryReader.open(luceneDir);
    mmapReader = DirectoryReader.open(mmapDir);
    chunkedReader = DirectoryReader.open(chunkedDir);
    heapReader = DirectoryReader.open(heapDir);
  }

  /** One non-compound segment, flushed once, so doc IDs match across codecs. */
  private static void write(Directory dir, Codec codec, long seed) throws IOException {
    Random random = new Random(seed);
    IndexWriterConfig config =
        new IndexWriterConfig(new MockAnalyzer(new Random(seed), MockTokenizer.WHITESPACE, false))
            .setCodec(codec)
            .setMaxBufferedDocs(NUM_DOCS + 1)
            .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setUseCompoundFile(false)
            .setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int id = 0; id < NUM_DOCS; id++) {
        StringBuilder text = new StringBuilder();
        for (int t = 0; t < TERMS.length; t++) {
          boolean holds =
              TERMS[t].equals("run")
                  ? id >= RUN_START && id < RUN_END
                  : random.nextDouble() < PROBABILITIES[t];
          for (int f = holds ? 1 + geometric(random) : 0; f > 0; f--) {
            text.append(TERMS[t]).append(' ');
          }
        }
        for (int filler = random.nextInt(40); filler > 0; filler--) {
          text.append('x').append(random.nextInt(50)).append(' ');
        }
        Document doc = new Document();
        doc.add(new TextField(FIELD, text.toString(), Field.Store.NO));
        writer.addDocument(doc);
      }
    }
  }

  private static int geometric(Random random) {
    int extra = 0;
    while (extra < 30 && random.nextInt(3) == 0) {
      extra++;
    }
    return extra;
  }

  @AfterClass
  public static void closeAll() throws IOException {
    for (var closeable :
        List.of(
            luceneReader,
            mmapReader,
            chunkedReader,
            heapReader,
            luceneDir,
            mmapDir,
            chunkedDir,
            heapDir)) {
      closeable.close();
    }
    luceneReader = mmapReader = chunkedReader = heapReader = null;
    luceneDir = mmapDir = chunkedDir = heapDir = null;
  }

  private static LeafReader leaf(DirectoryReader reader) {
    return getOnlyLeafReader(reader);
  }

  private static List<DirectoryReader> nvmReaders() {
    return List.of(mmapReader, chunkedReader, heapReader);
  }

  public void testInputKinds() throws IOException {
    assertTrue("MMapDirectory files are one memory segment", segmentsOf(mmapDir).isSingle());
    FileSegments chunks = segmentsOf(chunkedDir);
    assertTrue("files in 4 KB chunks are several segments", chunks.parts().length > 1);
    long next = 0;
    for (int i = 0; i < chunks.parts().length; i++) {
      assertEquals("segment " + i + " starts where the one before ends", next, chunks.starts()[i]);
      assertTrue(chunks.parts()[i].byteSize() <= CHUNK_SIZE);
      next += chunks.parts()[i].byteSize();
    }
    assertEquals(docFileLength(chunkedDir), next);
    assertNull("ByteBuffersDirectory files have no memory segment", segmentsOf(heapDir));
  }

  private static String docFile(Directory dir) throws IOException {
    for (String file : dir.listAll()) {
      if (NvmPostingsFormat.DOC_EXTENSION.equals(IndexFileNames.getExtension(file))) {
        return file;
      }
    }
    throw new AssertionError("no ." + NvmPostingsFormat.DOC_EXTENSION + " file in " + dir);
  }

  private static long docFileLength(Directory dir) throws IOException {
    return dir.fileLength(docFile(dir));
  }

  private static FileSegments segmentsOf(Directory dir) throws IOException {
    try (IndexInput in = dir.openInput(docFile(dir), IOContext.DEFAULT)) {
      return FileSegments.of(in);
    }
  }

  public void testCheckIndex() throws IOException {
    for (Directory dir : List.of(mmapDir, chunkedDir, heapDir)) {
      try (CheckIndex checker = new CheckIndex(dir)) {
        assertTrue(checker.checkIndex().clean);
      }
    }
  }

  /** Every block kind is present: the test would silently lose coverage otherwise. */
  public void testTermsCoverEveryBlockKind() throws IOException {
    assertTrue(docFreq("dense") > NvmPostingsFormat.BLOCKS_PER_GROUP * NvmPostingsFormat.BLOCK_SIZE);
    assertTrue(docFreq("bits15") > 2 * NvmPostingsFormat.BLOCK_SIZE);
    assertTrue(docFreq("medium") > 2 * NvmPostingsFormat.BLOCK_SIZE);
    assertTrue(docFreq("small") > NvmPostingsFormat.BLOCK_SIZE);
    assertTrue(docFreq("sparse") <= NvmPostingsFormat.BLOCK_SIZE);
    assertEquals(RUN_END - RUN_START, docFreq("run"));
  }

  private static int docFreq(String term) throws IOException {
    return leaf(luceneReader).docFreq(new Term(FIELD, term));
  }

  /** All (doc, freq) pairs of a term, from Lucene104. */
  private static int[][] reference(String term) throws IOException {
    PostingsEnum postings = leaf(luceneReader).postings(new Term(FIELD, term), PostingsEnum.FREQS);
    List<int[]> pairs = new ArrayList<>();
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      pairs.add(new int[] {doc, postings.freq()});
    }
    return pairs.toArray(int[][]::new);
  }

  private static PostingsEnum nvmPostings(DirectoryReader reader, String term, int flags)
      throws IOException {
    return leaf(reader).postings(new Term(FIELD, term), flags);
  }

  public void testNextDocAndFreq() throws IOException {
    for (String term : TERMS) {
      int[][] expected = reference(term);
      for (DirectoryReader reader : nvmReaders()) {
        PostingsEnum postings = nvmPostings(reader, term, PostingsEnum.FREQS);
        for (int[] pair : expected) {
          assertEquals(term, pair[0], postings.nextDoc());
          assertEquals(term, pair[1], postings.freq());
        }
        assertEquals(DocIdSetIterator.NO_MORE_DOCS, postings.nextDoc());
      }
    }
  }

  /** Random mixes of nextPostings (random upTo) and advance must see exactly Lucene's postings. */
  public void testNextPostingsAndAdvance() throws IOException {
    DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
    for (String term : TERMS) {
      int[][] expected = reference(term);
      for (DirectoryReader reader : nvmReaders()) {
        PostingsEnum postings = nvmPostings(reader, term, PostingsEnum.FREQS);
        int index = 0;
        assertEquals(expected[0][0], postings.nextDoc());
        while (index < expected.length) {
          assertEquals(term, expected[index][0], postings.docID());
          if (random().nextInt(4) == 0) {
            int target = postings.docID() + 1 + random().nextInt(3000);
            while (index < expected.length && expected[index][0] < target) {
              index++;
            }
            int want = index < expected.length ? expected[index][0] : DocIdSetIterator.NO_MORE_DOCS;
            assertEquals(term + " advance(" + target + ")", want, postings.advance(target));
            continue;
          }
          int upTo =
              random().nextBoolean()
                  ? DocIdSetIterator.NO_MORE_DOCS
                  : postings.docID() + 1 + random().nextInt(1000);
          postings.nextPostings(upTo, buffer);
          assertTrue(term + " empty batch before upTo", buffer.size > 0);
          for (int i = 0; i < buffer.size; i++, index++) {
            assertEquals(term, expected[index][0], buffer.docs[i]);
            assertEquals(term, expected[index][1], (int) buffer.features[i]);
            assertTrue(buffer.docs[i] < upTo);
          }
          int next = index < expected.length ? expected[index][0] : DocIdSetIterator.NO_MORE_DOCS;
          assertEquals(term + " after nextPostings", next, postings.docID());
        }
        assertEquals(DocIdSetIterator.NO_MORE_DOCS, postings.docID());
      }
    }
  }

  /** intoBitSet over random windows, same bits and same position afterwards as Lucene104. */
  public void testIntoBitSet() throws IOException {
    for (String term : TERMS) {
      for (DirectoryReader reader : nvmReaders()) {
        PostingsEnum expected = leaf(luceneReader).postings(new Term(FIELD, term), PostingsEnum.NONE);
        PostingsEnum actual = nvmPostings(reader, term, PostingsEnum.NONE);
        int target = random().nextInt(500);
        while (true) {
          int doc = expected.advance(target);
          assertEquals(term, doc, actual.advance(target));
          if (doc == DocIdSetIterator.NO_MORE_DOCS) {
            break;
          }
          int offset = doc - random().nextInt(100);
          int upTo = Math.min(NUM_DOCS, doc + 1 + random().nextInt(5000));
          FixedBitSet expectedBits = new FixedBitSet(upTo - offset);
          FixedBitSet actualBits = new FixedBitSet(upTo - offset);
          expected.intoBitSet(upTo, expectedBits, offset);
          actual.intoBitSet(upTo, actualBits, offset);
          assertEquals(term + " bits in [" + doc + ", " + upTo + ")", expectedBits, actualBits);
          assertEquals(term, expected.docID(), actual.docID());
          if (actual.docID() == DocIdSetIterator.NO_MORE_DOCS) {
            break;
          }
          target = actual.docID() + 1 + random().nextInt(2000);
        }
      }
    }
  }

  /** docIDRunEnd is a valid run end everywhere, and spans the whole run across blocks. */
  public void testDocIdRunEnd() throws IOException {
    for (String term : TERMS) {
      int[][] expected = reference(term);
      FixedBitSet present = new FixedBitSet(NUM_DOCS);
      for (int[] pair : expected) {
        present.set(pair[0]);
      }
      for (DirectoryReader reader : nvmReaders()) {
        PostingsEnum postings = nvmPostings(reader, term, PostingsEnum.NONE);
        for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; ) {
          int runEnd = postings.docIDRunEnd();
          assertTrue(term + " run end " + runEnd + " at " + doc, runEnd > doc);
          assertEquals(term, runEnd - doc, present.cardinality(doc, runEnd));
          assertEquals("position unchanged", doc, postings.docID());
          doc = postings.advance(doc + 1 + random().nextInt(300));
        }
      }
    }
    for (DirectoryReader reader : nvmReaders()) {
      PostingsEnum run = nvmPostings(reader, "run", PostingsEnum.NONE);
      assertEquals(RUN_START, run.nextDoc());
      assertEquals(RUN_END, run.docIDRunEnd());
      assertEquals(RUN_START + 700, run.advance(RUN_START + 700));
      assertEquals(RUN_END, run.docIDRunEnd());
    }
  }

  /**
   * Impacts on both levels bound every posting in their range, end where Lucene104's end (same
   * 256-doc blocks and 8192-doc groups), and level 0 is tight on the maximum freq.
   */
  public void testImpactsOnBothLevels() throws IOException {
    LeafReader lucene = leaf(luceneReader);
    for (String term : TERMS) {
      int[][] expected = reference(term);
      for (DirectoryReader reader : nvmReaders()) {
        LeafReader leaf = leaf(reader);
        NumericDocValues norms = leaf.getNormValues(FIELD);
        long[] normOf = new long[NUM_DOCS];
        for (int doc = norms.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = norms.nextDoc()) {
          normOf[doc] = norms.longValue();
        }
        ImpactsEnum actual = impacts(leaf, term);
        ImpactsEnum reference = impacts(lucene, term);
        for (int target = random().nextInt(100); target < NUM_DOCS; target += 1 + random().nextInt(2000)) {
          actual.advanceShallow(target);
          reference.advanceShallow(target);
          Impacts levels = actual.getImpacts();
          Impacts referenceLevels = reference.getImpacts();
          for (int level = 0; level < levels.numLevels(); level++) {
            int upTo = levels.getDocIdUpTo(level);
            assertTrue(upTo >= target);
            if (level < referenceLevels.numLevels()
                && referenceLevels.getDocIdUpTo(level) != DocIdSetIterator.NO_MORE_DOCS) {
              assertEquals(term + " level " + level, referenceLevels.getDocIdUpTo(level), upTo);
            }
            assertBounds(term, expected, normOf, target, upTo, levels.getImpacts(level), level == 0);
          }
        }
      }
    }
  }

  private static ImpactsEnum impacts(LeafReader leaf, String term) throws IOException {
    TermsEnum terms = leaf.terms(FIELD).iterator();
    assertTrue(terms.seekExact(new BytesRef(term)));
    return terms.impacts(PostingsEnum.FREQS);
  }

  private static void assertBounds(
      String term,
      int[][] postings,
      long[] normOf,
      int from,
      int upTo,
      FreqAndNormBuffer impacts,
      boolean tight) {
    int maxFreq = 0;
    for (int[] pair : postings) {
      if (pair[0] < from || pair[0] > upTo) {
        continue;
      }
      maxFreq = Math.max(maxFreq, pair[1]);
      boolean bounded = false;
      for (int i = 0; i < impacts.size && bounded == false; i++) {
        bounded =
            impacts.freqs[i] >= pair[1] && Long.compareUnsigned(impacts.norms[i], normOf[pair[0]]) <= 0;
      }
      assertTrue(term + " doc " + pair[0] + " not bounded in [" + from + ", " + upTo + "]", bounded);
    }
    if (tight && upTo != DocIdSetIterator.NO_MORE_DOCS && maxFreq > 0) {
      assertTrue(term + " level 0 max freq", impacts.freqs[impacts.size - 1] >= maxFreq);
    }
  }
}
