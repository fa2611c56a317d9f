package org.apache.lucene.codecs.lucene104;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.internal.vectorization.PostingDecodingUtil;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * Lucene104's postings reader decodes blocks with the same vectorized, memory-segment based
 * decoder on an {@link NvmDirectory} as on {@link MMapDirectory}. Lives in Lucene's package to
 * reach the reader's vectorization provider (Lucene lets only its own classes look it up); skipped,
 * with the reason, where the JVM does not vectorize postings decoding for {@code MMapDirectory}
 * either (no {@code jdk.incubator.vector}, no fast integer vectors).
 */
public class TestNvmDirectoryPostingDecoding extends LuceneTestCase {
  private static final String MEMORY_SEGMENT_DECODER = "MemorySegmentPostingDecodingUtil";

  private static PostingDecodingUtil decoderFor(Directory dir, byte[] bytes) throws IOException {
    try (IndexOutput out = dir.createOutput("blocks", IOContext.DEFAULT)) {
      out.writeBytes(bytes, bytes.length);
    }
    IndexInput in = dir.openInput("blocks", IOContext.DEFAULT);
    return Lucene104PostingsReader.VECTORIZATION_PROVIDER.newPostingDecodingUtil(in);
  }

  private static void assumeMMapDecodesWithMemorySegments(PostingDecodingUtil mmapDecoder) {
    assumeTrue(
        "postings decoding is not vectorized on this JVM (MMapDirectory gets "
            + mmapDecoder.getClass().getSimpleName()
            + ")",
        mmapDecoder.getClass().getSimpleName().equals(MEMORY_SEGMENT_DECODER));
  }

  private static NvmDirectory openNvm(String name) throws IOException {
    return NvmDirectory.open(PoolPaths.poolIn(createTempDir(name)), 64L * 1024 * 1024);
  }

  public void testNvmInputGetsMMapDirectorysDecoderAndDecodesTheSame() throws IOException {
    byte[] bytes = new byte[64 * 1024];
    random().nextBytes(bytes);
    Path mmapPath = createTempDir("mmap");
    try (NvmDirectory nvm = openNvm("nvm");
        MMapDirectory mmap = new MMapDirectory(mmapPath)) {
      PostingDecodingUtil mmapDecoder = decoderFor(mmap, bytes);
      PostingDecodingUtil nvmDecoder = decoderFor(nvm, bytes);
      try (IndexInput mmapIn = mmapDecoder.in;
          IndexInput nvmIn = nvmDecoder.in) {
        assumeMMapDecodesWithMemorySegments(mmapDecoder);
        assertEquals(mmapDecoder.getClass(), nvmDecoder.getClass());
        // Decode the same blocks both ways (ForUtil's shapes: 8 bits in 32, 4 of 32, ...).
        int[] shapes = {7, 1, 6, 2, 5, 3, 4, 4};
        for (int round = 0; round < 50; round++) {
          long pos = random().nextInt(bytes.length - 64 * Integer.BYTES);
          mmapIn.seek(pos);
          nvmIn.seek(pos);
          int shape = random().nextInt(shapes.length / 2) * 2;
          int bShift = shapes[shape];
          int dec = shapes[shape + 1];
          int count = 8 * (1 + random().nextInt(8));
          int[] mmapB = new int[count * 8];
          int[] mmapC = new int[count];
          int[] nvmB = new int[count * 8];
          int[] nvmC = new int[count];
          mmapDecoder.splitInts(count, mmapB, bShift, dec, 0xFF, mmapC, 0, 0x7F);
          nvmDecoder.splitInts(count, nvmB, bShift, dec, 0xFF, nvmC, 0, 0x7F);
          assertArrayEquals(mmapB, nvmB);
          assertArrayEquals(mmapC, nvmC);
          assertEquals(mmapIn.getFilePointer(), nvmIn.getFilePointer());
        }
      }
    }
  }

  /** End to end: an index on NvmDirectory, and the decoder the postings enum really uses. */
  public void testLucene104PostingsEnumOnNvmDirectoryUsesTheMemorySegmentDecoder() throws Exception {
    byte[] probe = new byte[1024];
    try (MMapDirectory mmap = new MMapDirectory(createTempDir("probe"))) {
      PostingDecodingUtil mmapDecoder = decoderFor(mmap, probe);
      mmapDecoder.in.close();
      assumeMMapDecodesWithMemorySegments(mmapDecoder);
    }
    try (NvmDirectory dir = openNvm("index")) {
      IndexWriterConfig config =
          new IndexWriterConfig(new StandardAnalyzer()).setCodec(new Lucene104Codec());
      int docs = 2000;
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "common w" + (i % 7), TextField.Store.NO));
          writer.addDocument(doc);
        }
        writer.forceMerge(1);
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader leaf = reader.leaves().getFirst().reader();
        PostingsEnum postings = leaf.postings(new Term("body", "common"), PostingsEnum.FREQS);
        int count = 0;
        while (postings.nextDoc() != DocIdSetIterator.NO_MORE_DOCS) {
          count++;
        }
        assertEquals(docs, count);
        Field decoderField = postings.getClass().getDeclaredField("docInUtil");
        decoderField.setAccessible(true);
        Object decoder = decoderField.get(postings);
        assertNotNull("the enum decoded no full block", decoder);
        assertEquals(MEMORY_SEGMENT_DECODER, decoder.getClass().getSimpleName());
      }
    }
  }
}
