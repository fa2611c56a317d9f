package org.lucenenvm.store;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.MergeInfo;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * How many extents the files of real segments occupy: an IndexWriter with Lucene's default codec
 * flushes several segments into an {@link NvmDirectory} and then merges them into one. Every file
 * must be one contiguous extent, so that inputs take the single-segment read path and hand Lucene
 * a whole-file {@link java.lang.foreign.MemorySegment}.
 */
public class TestNvmFileExtents extends LuceneTestCase {
  private static final long POOL_SIZE = 256L * 1024 * 1024;
  private static final int DOCS = 5000;
  private static final int DOCS_PER_FLUSH = 1000;

  public void testFlushedAndMergedFilesAreOneExtent() throws IOException {
    for (boolean compound : new boolean[] {false, true}) {
      try (NvmDirectory dir = NvmDirectory.open(PoolPaths.poolIn(createTempDir("extents")), POOL_SIZE)) {
        LogDocMergePolicy mergePolicy = new LogDocMergePolicy();
        mergePolicy.setMergeFactor(1000); // no merge until forceMerge
        mergePolicy.setNoCFSRatio(compound ? 1.0 : 0.0);
        IndexWriterConfig config =
            new IndexWriterConfig(new StandardAnalyzer())
                .setCodec(new Lucene104Codec())
                .setUseCompoundFile(compound)
                .setMaxBufferedDocs(DOCS_PER_FLUSH)
                .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
                .setMergePolicy(mergePolicy)
                .setMergeScheduler(new SerialMergeScheduler());
        try (IndexWriter writer = new IndexWriter(dir, config)) {
          for (int i = 0; i < DOCS; i++) {
            writer.addDocument(document(i));
          }
          writer.commit();
          Map<String, Integer> flushed = extentsPerFile(dir);
          assertEquals(DOCS / DOCS_PER_FLUSH, SegmentInfos.readLatestCommit(dir).size());
          writer.forceMerge(1);
          writer.commit();
          Map<String, Integer> merged = extentsPerFile(dir);
          System.out.println(
              "compound=" + compound + ": extents per file, flushed " + flushed + ", merged " + merged);
          assertOneExtentEach("flushed (compound=" + compound + ")", flushed);
          assertOneExtentEach("merged (compound=" + compound + ")", merged);
        }
      }
    }
  }

  public void testFirstExtentFollowsTheFlushOrMergeEstimateWithinBounds() {
    long free = 1L << 30;
    assertEquals(16 * 1024, NvmIndexOutput.firstExtentSize(IOContext.DEFAULT, free));
    assertEquals(
        ExtentAllocator.blocks(5_000_000),
        NvmIndexOutput.firstExtentSize(IOContext.flush(new FlushInfo(100, 5_000_000)), free));
    assertEquals(
        ExtentAllocator.blocks(7_000_000),
        NvmIndexOutput.firstExtentSize(IOContext.merge(new MergeInfo(100, 7_000_000, false, 1)), free));
    assertEquals(
        64L * 1024 * 1024,
        NvmIndexOutput.firstExtentSize(IOContext.merge(new MergeInfo(100, 1L << 40, false, 1)), free));
    assertEquals(
        free / 16, NvmIndexOutput.firstExtentSize(IOContext.flush(new FlushInfo(100, 1L << 40)), free));
  }

  /**
   * A pool with free space only in small holes: a larger file is written into several extents,
   * cannot be coalesced, and reads back through the multi-extent input.
   */
  public void testFileThatCannotBeCoalescedKeepsItsExtentsAndReadsBack() throws IOException {
    int holeBytes = 64 * 1024;
    try (NvmDirectory dir = NvmDirectory.open(PoolPaths.poolIn(createTempDir("holes")), 8L * 1024 * 1024)) {
      byte[] filler = new byte[holeBytes];
      int files = 0;
      while (dir.freeBytes() >= holeBytes) {
        try (IndexOutput out = dir.createOutput("filler" + files++, IOContext.DEFAULT)) {
          out.writeBytes(filler, filler.length);
        }
      }
      for (int i = 0; i < files; i += 2) {
        dir.deleteFile("filler" + i);
      }
      byte[] bytes = new byte[8 * holeBytes];
      random().nextBytes(bytes);
      try (IndexOutput out = dir.createOutput("big", IOContext.DEFAULT)) {
        out.writeBytes(bytes, bytes.length);
      }
      assertTrue("extents: " + dir.extentCount("big"), dir.extentCount("big") > 1);
      try (IndexInput in = dir.openInput("big", IOContext.DEFAULT)) {
        assertTrue(in instanceof MultiSegmentInput);
        byte[] read = new byte[bytes.length];
        in.readBytes(read, 0, read.length);
        assertArrayEquals(bytes, read);
        assertNull(((MemorySegmentAccessInput) in).segmentSliceOrNull(0, bytes.length));
      }
    }
  }

  private Document document(int id) {
    StringBuilder body = new StringBuilder();
    int words = 10 + random().nextInt(40);
    for (int w = 0; w < words; w++) {
      // Zipf-like: a few very common terms and a long tail.
      int term = (int) Math.floor(Math.pow(random().nextDouble(), 3) * 5000);
      body.append("t").append(term).append(' ');
    }
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    doc.add(new TextField("body", body.toString(), Field.Store.YES));
    doc.add(new NumericDocValuesField("rank", random().nextInt(1000)));
    doc.add(new IntPoint("year", 1900 + random().nextInt(200)));
    return doc;
  }

  /** Extents of every file of every segment of the latest commit, by file name. */
  private static Map<String, Integer> extentsPerFile(NvmDirectory dir) throws IOException {
    Map<String, Integer> extents = new TreeMap<>();
    for (SegmentCommitInfo segment : SegmentInfos.readLatestCommit(dir)) {
      for (String file : segment.files()) {
        extents.put(file, dir.extentCount(file));
      }
    }
    return extents;
  }

  private static void assertOneExtentEach(String what, Map<String, Integer> extents) {
    assertFalse(what + ": no files", extents.isEmpty());
    extents.forEach((file, count) -> assertEquals(what + " file " + file + " " + extents, 1, (int) count));
  }
}
