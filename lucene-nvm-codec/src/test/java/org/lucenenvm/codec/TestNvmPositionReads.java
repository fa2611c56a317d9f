package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/**
 * Positions, offsets and payloads are read in place, one record per {@code nextPosition()}: a
 * consumer that reads only some of a document's positions (as a phrase query does) and then moves
 * on with {@code nextDoc} or {@code advance} must see exactly what Lucene104 returns, on a
 * memory-segment input ({@link MMapDirectory}), on one mapped in small chunks (records that cross
 * chunks are read value by value) and on a random-access input ({@link ByteBuffersDirectory}).
 */
public class TestNvmPositionReads extends LuceneTestCase {

  /** Chunk size of the chunked MMapDirectory: many chunks per position file. */
  private static final int CHUNK_SIZE = 1 << 10;

  private static final String[] FIELDS = {RandomDocs.BODY, RandomDocs.OFFSETS, RandomDocs.PAYLOADS};

  private static final int FLAGS = PostingsEnum.ALL;

  private static List<Directory> dirs;
  private static DirectoryReader luceneReader;
  private static List<DirectoryReader> nvmReaders;

  @BeforeClass
  public static void indexAll() throws IOException {
    RandomDocs generator = new RandomDocs(random(), 60);
    List<Document> docs = new ArrayList<>();
    for (int id = 0, numDocs = atLeast(2000); id < numDocs; id++) {
      docs.add(generator.next(id));
    }
    long analyzerSeed = random().nextLong();
    Directory luceneDir = new ByteBuffersDirectory();
    List<Directory> nvmDirs =
        List.of(
            new MMapDirectory(createTempDir("nvm-positions")),
            new MMapDirectory(createTempDir("nvm-positions-chunked"), CHUNK_SIZE),
            new ByteBuffersDirectory());
    write(luceneDir, new Lucene104Codec(), docs, analyzerSeed);
    nvmReaders = new ArrayList<>();
    for (Directory dir : nvmDirs) {
      write(dir, new NvmCodec(), docs, analyzerSeed);
      nvmReaders.add(DirectoryReader.open(dir));
    }
    luceneReader = DirectoryReader.open(luceneDir);
    dirs = new ArrayList<>(nvmDirs);
    dirs.add(luceneDir);
  }

  /** One segment, flushed once, so doc IDs match across codecs. */
  private static void write(Directory dir, Codec codec, List<Document> docs, long analyzerSeed)
      throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig(RandomDocs.analyzer(new Random(analyzerSeed)))
            .setCodec(codec)
            .setMaxBufferedDocs(docs.size() + 1)
            .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setUseCompoundFile(false)
            .setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (Document doc : docs) {
        writer.addDocument(doc);
      }
    }
  }

  @AfterClass
  public static void closeAll() throws IOException {
    luceneReader.close();
    for (DirectoryReader reader : nvmReaders) {
      reader.close();
    }
    for (Directory dir : dirs) {
      dir.close();
    }
    luceneReader = null;
    nvmReaders = null;
    dirs = null;
  }

  public void testChunkedFilesAreSeveralSegments() throws IOException {
    LeafReader leaf = getOnlyLeafReader(nvmReaders.get(1));
    assertNotNull(leaf.terms(RandomDocs.BODY));
    long posFileBytes = 0;
    for (String file : dirs.get(1).listAll()) {
      if (file.endsWith("." + NvmPostingsFormat.POS_EXTENSION)) {
        posFileBytes = dirs.get(1).fileLength(file);
      }
    }
    assertTrue("position file spans several chunks: " + posFileBytes, posFileBytes > 4 * CHUNK_SIZE);
  }

  /** Each doc: read a random prefix of its positions, then nextDoc or advance by a random gap. */
  public void testPartialPositionReads() throws IOException {
    LeafReader lucene = getOnlyLeafReader(luceneReader);
    for (String field : FIELDS) {
      for (int t = 0; t < 12; t++) {
        Term term = new Term(field, "t" + t);
        for (DirectoryReader nvmReader : nvmReaders) {
          long seed = random().nextLong();
          PostingsEnum expected = lucene.postings(term, FLAGS);
          PostingsEnum actual = getOnlyLeafReader(nvmReader).postings(term, FLAGS);
          assertEquals(term.toString(), expected == null, actual == null);
          if (expected != null) {
            assertSamePartialReads(term + " on " + nvmReader, expected, actual, new Random(seed));
          }
        }
      }
    }
  }

  private static void assertSamePartialReads(
      String what, PostingsEnum expected, PostingsEnum actual, Random random) throws IOException {
    int doc = expected.nextDoc();
    assertEquals(what, doc, actual.nextDoc());
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      int freq = expected.freq();
      assertEquals(what + " freq of " + doc, freq, actual.freq());
      int read = random.nextInt(3) == 0 ? freq : random.nextInt(freq + 1);
      for (int i = 0; i < read; i++) {
        String at = what + " doc " + doc + " position " + i;
        assertEquals(at, expected.nextPosition(), actual.nextPosition());
        assertEquals(at, expected.startOffset(), actual.startOffset());
        assertEquals(at, expected.endOffset(), actual.endOffset());
        assertEquals(at, expected.getPayload(), actual.getPayload());
      }
      if (random.nextBoolean()) {
        doc = expected.nextDoc();
        assertEquals(what, doc, actual.nextDoc());
      } else {
        int target = doc + 1 + random.nextInt(8);
        doc = expected.advance(target);
        assertEquals(what + " advance(" + target + ")", doc, actual.advance(target));
      }
    }
  }
}
