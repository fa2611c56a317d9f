package org.lucenenvm.codec;

import java.io.IOException;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmPostingsFormat.MergeMode;

/**
 * The terms dictionary of a linked merge against a copying merge's, on a fixed corpus of short
 * documents over a long-tailed vocabulary, where most terms are in one source only and their
 * metadata is most of what a linked merge writes. Sizes, not timings: the corpus, analyzer,
 * segmentation and merge are fixed (nothing here draws from the test's random seed).
 */
public class TestNvmLinkedTermsSize extends LuceneTestCase {

  private static final int SEGMENTS = 4;
  private static final int DOCS_PER_SEGMENT = 2_000;
  private static final int WORDS_PER_DOC = 12;
  private static final int VOCABULARY = 200_000;
  private static final String BODY = "body";

  /** At most this many times the copying merge's terms dictionary bytes. */
  private static final double MAX_RATIO = 1.3;

  public void testLinkedTermsDictionaryIsCompact() throws IOException {
    try (Directory sources = new ByteBuffersDirectory()) {
      addSegments(sources);
      long linked = mergedTermsBytes(sources, MergeMode.LINK);
      long copied = mergedTermsBytes(sources, MergeMode.COPY);
      assertTrue(
          "linked .tim " + linked + " bytes, copied .tim " + copied + " bytes",
          linked <= MAX_RATIO * copied);
    }
  }

  /**
   * Adds {@link #SEGMENTS} segments of short documents whose words have log-uniform ranks in the
   * vocabulary (Zipf-like: a few frequent words, a long tail of rare ones).
   */
  private static void addSegments(Directory dir) throws IOException {
    Random words = new Random(42);
    IndexWriterConfig config = config(MergeMode.COPY, NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int segment = 0; segment < SEGMENTS; segment++) {
        for (int i = 0; i < DOCS_PER_SEGMENT; i++) {
          StringBuilder text = new StringBuilder();
          for (int w = 0; w < WORDS_PER_DOC; w++) {
            int rank = (int) Math.exp(words.nextDouble() * Math.log(VOCABULARY));
            text.append(" w").append(Integer.toString(rank, 36));
          }
          Document doc = new Document();
          doc.add(new TextField(BODY, text.toString(), Field.Store.NO));
          writer.addDocument(doc);
        }
        writer.flush();
      }
    }
  }

  /**
   * Force-merges a copy of {@code sources} into one segment with {@code mode} and returns the size
   * of its terms dictionary (.tim); checks that a linked merge linked every source.
   */
  private static long mergedTermsBytes(Directory sources, MergeMode mode) throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      for (String file : sources.listAll()) {
        dir.copyFrom(sources, file, file, IOContext.DEFAULT);
      }
      LogDocMergePolicy policy = new LogDocMergePolicy();
      policy.setNoCFSRatio(0);
      IndexWriterConfig config = config(mode, policy).setMergeScheduler(new SerialMergeScheduler());
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        writer.forceMerge(1);
      }
      assertEquals(mode == MergeMode.LINK ? SEGMENTS : 0, TestNvmLinkedMerge.runCount(dir));
      long bytes = 0;
      for (String file : dir.listAll()) {
        if (file.endsWith(".tim")) {
          assertEquals("one terms dictionary", 0, bytes);
          bytes = dir.fileLength(file);
        }
      }
      assertTrue("no .tim", bytes > 0);
      return bytes;
    }
  }

  private static IndexWriterConfig config(MergeMode mode, MergePolicy policy) {
    NvmPostingsFormat format =
        new NvmPostingsFormat(mode, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM);
    return new IndexWriterConfig(new StandardAnalyzer())
        .setCodec(new NvmCodec(field -> format))
        .setMergePolicy(policy)
        .setUseCompoundFile(false)
        .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH)
        .setRAMBufferSizeMB(256);
  }
}
