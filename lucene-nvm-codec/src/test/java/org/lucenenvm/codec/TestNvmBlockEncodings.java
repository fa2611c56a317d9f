package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.analysis.MockTokenizer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmPostingsFormat.DocEncoding;

/**
 * The doc and freq encodings that random text of a few thousand documents does not reach: a block
 * of a multi-block term whose doc IDs span more than {@value NvmPostingsFormat#MAX_DELTA16_SPAN}
 * (Int32 doc IDs), 16-bit deltas next to 8-bit ones in one term, blocks whose largest freq needs 2
 * or 4 bytes, and blocks of 4-bit freqs that differ from doc to doc, with an odd-sized last block
 * (the high nibbles of its last byte unused). The writer's choice of 8-bit deltas is read back from
 * the skip file; postings are compared with Lucene104's on the memory-segment and the {@code
 * RandomAccessInput} read paths.
 */
public class TestNvmBlockEncodings extends LuceneTestCase {
  private static final String FIELD = "f";
  private static final int NUM_DOCS = NvmPostingsFormat.MAX_DELTA16_SPAN + 5_000;

  /** "far": docs 0..254 and two near the end, so block 0 spans more than 16-bit deltas allow. */
  private static boolean holdsFar(int id) {
    return id < NvmPostingsFormat.BLOCK_SIZE - 1 || id == NUM_DOCS - 1_000 || id == NUM_DOCS - 1;
  }

  /** "wide": every 50th doc; freq 300 in every 100th (2-byte freqs), 70,000 in one (4 bytes). */
  private static int wideFreq(int id) {
    if (id % 50 != 0) {
      return 0;
    }
    if (id == 700) {
      return 70_000;
    }
    return id % 100 == 0 ? 300 : 1 + id % 7;
  }

  /**
   * "narrow": every 3rd doc of the first {@value #NARROW_DOCS}, freqs 1 to 15 in turn (4-bit
   * blocks), except 16 in one doc of block 1 (1-byte freqs there).
   */
  private static int narrowFreq(int id) {
    if (id % 3 != 0 || id / 3 >= NARROW_DOCS) {
      return 0;
    }
    if (id / 3 == NvmPostingsFormat.BLOCK_SIZE + 7) {
      return NvmPostingsFormat.MAX_NIBBLE_FREQ + 1;
    }
    return 1 + (id / 3) % NvmPostingsFormat.MAX_NIBBLE_FREQ;
  }

  /**
   * "mid": every 200th doc but 1000, so block 0 has one difference of 400 (16-bit deltas), block 1
   * (the last, of 95 docs) only differences of 200 (8-bit deltas with the high bit set).
   */
  private static boolean holdsMid(int id) {
    return id % 200 == 0 && id != 1000;
  }

  /** Docs of "narrow": ten full blocks and one of 77 docs. */
  private static final int NARROW_DOCS = 10 * NvmPostingsFormat.BLOCK_SIZE + 77;

  private static void write(Directory dir, Codec codec) throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig(new MockAnalyzer(random(), MockTokenizer.WHITESPACE, false))
            .setCodec(codec)
            .setMaxBufferedDocs(NUM_DOCS + 1)
            .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setUseCompoundFile(false)
            .setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int id = 0; id < NUM_DOCS; id++) {
        StringBuilder text = new StringBuilder("x ");
        if (holdsFar(id)) {
          text.append("far ");
        }
        text.append("wide ".repeat(wideFreq(id)));
        text.append("narrow ".repeat(narrowFreq(id)));
        if (holdsMid(id)) {
          text.append("mid ");
        }
        Document doc = new Document();
        doc.add(new TextField(FIELD, text.toString(), Field.Store.NO));
        writer.addDocument(doc);
      }
    }
  }

  public void testEncodingsReadBackAsLucene104() throws IOException {
    assertEquals(
        "block 0 of \"far\" must be stored as Int32 doc IDs",
        DocEncoding.INT32,
        NvmPostingsFormat.docEncoding(
            NvmPostingsFormat.BLOCK_SIZE, true, NUM_DOCS - 1_000 - (-1), false));
    assertEquals(Integer.BYTES, NvmPostingsFormat.valueWidth(wideFreq(700)));
    assertEquals(Short.BYTES, NvmPostingsFormat.valueWidth(wideFreq(100)));
    assertEquals(Integer.BYTES, NvmPostingsFormat.valueWidth(wideFreq(700) - 1));
    assertEquals(
        NvmPostingsFormat.FREQ_NIBBLES,
        NvmPostingsFormat.freqWidth(NvmPostingsFormat.MAX_NIBBLE_FREQ));
    assertEquals(
        Byte.BYTES, NvmPostingsFormat.freqWidth(narrowFreq(3 * (NvmPostingsFormat.BLOCK_SIZE + 7))));
    try (Directory lucene = new ByteBuffersDirectory();
        Directory mmap = new MMapDirectory(createTempDir("nvm-encodings"));
        Directory heap = new ByteBuffersDirectory()) {
      write(lucene, new Lucene104Codec());
      write(mmap, new NvmCodec());
      write(heap, new NvmCodec());
      try (DirectoryReader expected = DirectoryReader.open(lucene);
          DirectoryReader onSegment = DirectoryReader.open(mmap);
          DirectoryReader onRandomAccess = DirectoryReader.open(heap)) {
        LeafReader leaf = getOnlyLeafReader(onSegment);
        String skipFile = skipFile(mmap);
        assertEquals(
            "mid: 16-bit deltas, then 8-bit",
            "[false, true]",
            flags(mmap, skipFile, leaf, "mid"));
        assertEquals(
            "far: Int32 doc IDs, then one 16-bit delta",
            "[false, false]", flags(mmap, skipFile, leaf, "far"));
        assertTrue(
            "wide: 8-bit deltas of 50",
            flags(mmap, skipFile, leaf, "wide").matches("\\[true(, true)*\\]"));
        assertTrue(
            "narrow: bit sets, then a last block of 8-bit deltas",
            flags(mmap, skipFile, leaf, "narrow").matches("\\[false(, false)*, true\\]"));
        for (String term : List.of("far", "wide", "narrow", "mid", "x")) {
          List<int[]> reference = postings(expected, term);
          assertTrue(term, reference.size() > NvmPostingsFormat.BLOCK_SIZE);
          for (DirectoryReader reader : List.of(onSegment, onRandomAccess)) {
            assertEquals(term, toString(reference), toString(postings(reader, term)));
            assertAdvanceAgrees(reader, term, reference);
            assertEquals(term, toString(reference), toString(batches(reader, term)));
            assertSamePositions(expected, reader, term);
          }
        }
      }
    }
  }

  /**
   * Every position equals Lucene104's: "wide" has PositionBlocks of 2 bytes (positions up to 300)
   * and of 4 bytes (the doc of 70,000 positions), the others of 1 byte.
   */
  private static void assertSamePositions(
      DirectoryReader expected, DirectoryReader actual, String term) throws IOException {
    Term t = new Term(FIELD, term);
    PostingsEnum reference = getOnlyLeafReader(expected).postings(t, PostingsEnum.POSITIONS);
    PostingsEnum postings = getOnlyLeafReader(actual).postings(t, PostingsEnum.POSITIONS);
    for (int doc = reference.nextDoc(); ; doc = reference.nextDoc()) {
      assertEquals(term, doc, postings.nextDoc());
      if (doc == DocIdSetIterator.NO_MORE_DOCS) {
        return;
      }
      for (int i = reference.freq(); i > 0; i--) {
        assertEquals(term + " in doc " + doc, reference.nextPosition(), postings.nextPosition());
      }
    }
  }

  private static String flags(Directory dir, String skipFile, LeafReader leaf, String term)
      throws IOException {
    return Arrays.toString(
        BlockDocPointers.byteDeltaFlags(dir, skipFile, leaf, new Term(FIELD, term)));
  }

  private static String skipFile(Directory dir) throws IOException {
    return Arrays.stream(dir.listAll())
        .filter(file -> file.endsWith("." + NvmPostingsFormat.SKIP_EXTENSION))
        .findFirst()
        .orElseThrow();
  }

  private static List<int[]> postings(DirectoryReader reader, String term) throws IOException {
    PostingsEnum postings =
        getOnlyLeafReader(reader).postings(new Term(FIELD, term), PostingsEnum.FREQS);
    List<int[]> pairs = new ArrayList<>();
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      pairs.add(new int[] {doc, postings.freq()});
    }
    return pairs;
  }

  /**
   * The postings as {@code nextPostings} returns them, in batches that end at random doc IDs (so
   * that batches start and end inside blocks), after a random number of {@code freq()} calls
   * (each block's freqs are then read in place, or copied, before the batch takes them).
   */
  private static List<int[]> batches(DirectoryReader reader, String term) throws IOException {
    PostingsEnum postings =
        getOnlyLeafReader(reader).postings(new Term(FIELD, term), PostingsEnum.FREQS);
    List<int[]> pairs = new ArrayList<>();
    DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; ) {
      for (int reads = random().nextInt(5); reads > 0 && doc != DocIdSetIterator.NO_MORE_DOCS;
          reads--) {
        pairs.add(new int[] {doc, postings.freq()});
        doc = postings.nextDoc();
      }
      postings.nextPostings(doc + 1 + random().nextInt(2_000), buffer);
      for (int i = 0; i < buffer.size; i++) {
        pairs.add(new int[] {buffer.docs[i], (int) buffer.features[i]});
      }
      doc = postings.docID();
    }
    return pairs;
  }

  private static String toString(List<int[]> pairs) {
    StringBuilder text = new StringBuilder();
    for (int[] pair : pairs) {
      text.append(pair[0]).append(':').append(pair[1]).append(' ');
    }
    return text.toString();
  }

  /** advance to random targets gives the reference's next doc and its freq. */
  private static void assertAdvanceAgrees(DirectoryReader reader, String term, List<int[]> ref)
      throws IOException {
    PostingsEnum postings =
        getOnlyLeafReader(reader).postings(new Term(FIELD, term), PostingsEnum.FREQS);
    int index = 0;
    int target = random().nextInt(1_000);
    while (true) {
      while (index < ref.size() && ref.get(index)[0] < target) {
        index++;
      }
      int doc = postings.advance(target);
      if (index == ref.size()) {
        assertEquals(term, DocIdSetIterator.NO_MORE_DOCS, doc);
        return;
      }
      assertEquals(term + " advance(" + target + ")", ref.get(index)[0], doc);
      assertEquals(term + " freq at " + doc, ref.get(index)[1], postings.freq());
      target = doc + 1 + random().nextInt(3_000);
    }
  }
}
