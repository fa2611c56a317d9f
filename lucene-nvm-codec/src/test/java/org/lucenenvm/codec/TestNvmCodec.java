package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104PostingsFormat;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** {@link NvmCodec}: SPI registration, CheckIndex and forceMerge on real directories. */
public class TestNvmCodec extends LuceneTestCase {

  public void testRegisteredThroughSpi() {
    assertTrue(PostingsFormat.forName(NvmPostingsFormat.NAME) instanceof NvmPostingsFormat);
    assertTrue(Codec.forName(NvmCodec.NAME) instanceof NvmCodec);
  }

  public void testMMapDirectoryPassesCheckIndexAndSurvivesForceMerge() throws IOException {
    try (Directory dir = new MMapDirectory(createTempDir("nvm-codec"))) {
      indexCheckAndMerge(dir);
    }
  }

  public void testRandomTestDirectoryPassesCheckIndexAndSurvivesForceMerge() throws IOException {
    try (Directory dir = newDirectory()) {
      indexCheckAndMerge(dir);
    }
  }

  /**
   * Indexes several segments with deletions, checks them, force-merges to one segment and checks
   * again that the merged postings hold exactly the live documents' terms.
   */
  private void indexCheckAndMerge(Directory dir) throws IOException {
    RandomDocs docs = new RandomDocs(random(), 200);
    int numDocs = atLeast(1500);
    try (IndexWriter writer = new IndexWriter(dir, writerConfig(NoMergePolicy.INSTANCE))) {
      for (int id = 0; id < numDocs; id++) {
        writer.addDocument(docs.next(id));
      }
      for (int id = 0; id < numDocs; id += 7) {
        writer.deleteDocuments(new Term(RandomDocs.ID, Integer.toString(id)));
      }
    }
    assertTrue(SegmentInfos.readLatestCommit(dir).size() > 1);
    assertClean(dir);

    try (IndexWriter writer = new IndexWriter(dir, writerConfig(new TieredMergePolicy()))) {
      writer.forceMerge(1);
    }
    assertClean(dir);

    SegmentInfos infos = SegmentInfos.readLatestCommit(dir);
    assertEquals(1, infos.size());
    SegmentCommitInfo merged = infos.info(0);
    assertEquals(NvmCodec.NAME, merged.info.getCodec().getName());
    try (DirectoryReader reader = DirectoryReader.open(dir)) {
      assertEquals(numDocs - (numDocs + 6) / 7, reader.numDocs());
      assertEquals(reader.numDocs(), reader.maxDoc());
      LeafReader leaf = getOnlyLeafReader(reader);
      for (String field :
          new String[] {
            RandomDocs.KEYWORDS, RandomDocs.FREQS, RandomDocs.BODY, RandomDocs.OFFSETS,
            RandomDocs.PAYLOADS
          }) {
        assertEquals(
            NvmPostingsFormat.NAME,
            leaf.getFieldInfos()
                .fieldInfo(field)
                .getAttribute(PerFieldPostingsFormat.PER_FIELD_FORMAT_KEY));
      }
      leaf.checkIntegrity();
      // Each live document holds its id exactly once.
      for (int id = 1; id < numDocs; id += 7) {
        assertEquals(1, reader.docFreq(new Term(RandomDocs.ID, Integer.toString(id))));
      }
      assertEquals(0, reader.docFreq(new Term(RandomDocs.ID, "0")));
    }
  }

  private static IndexWriterConfig writerConfig(MergePolicy mergePolicy) {
    return new IndexWriterConfig(RandomDocs.analyzer(random()))
        .setCodec(new NvmCodec())
        .setMaxBufferedDocs(TestUtil.nextInt(random(), 50, 300))
        .setMergePolicy(mergePolicy);
  }

  private static void assertClean(Directory dir) throws IOException {
    try (CheckIndex checker = new CheckIndex(dir)) {
      checker.setLevel(CheckIndex.Level.MIN_LEVEL_FOR_SLOW_CHECKS);
      CheckIndex.Status status = checker.checkIndex();
      assertTrue("CheckIndex found problems", status.clean);
    }
  }

  public void testPerFieldChoiceIsReadBackThroughSpi() throws IOException {
    PostingsFormat nvm = new NvmPostingsFormat();
    PostingsFormat lucene = new Lucene104PostingsFormat();
    Codec codec = new NvmCodec(field -> RandomDocs.ID.equals(field) ? lucene : nvm);
    RandomDocs docs = new RandomDocs(random(), 50);
    try (Directory dir = newDirectory()) {
      IndexWriterConfig config =
          new IndexWriterConfig(RandomDocs.analyzer(random())).setCodec(codec);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int id = 0; id < 100; id++) {
          writer.addDocument(docs.next(id));
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader leaf = getOnlyLeafReader(reader);
        assertEquals(
            lucene.getName(),
            leaf.getFieldInfos()
                .fieldInfo(RandomDocs.ID)
                .getAttribute(PerFieldPostingsFormat.PER_FIELD_FORMAT_KEY));
        assertEquals(
            nvm.getName(),
            leaf.getFieldInfos()
                .fieldInfo(RandomDocs.BODY)
                .getAttribute(PerFieldPostingsFormat.PER_FIELD_FORMAT_KEY));
        assertEquals(1, reader.docFreq(new Term(RandomDocs.ID, "42")));
      }
    }
  }

  public void testNullFormatForFieldIsRejected() {
    PerFieldPostingsFormat perField =
        (PerFieldPostingsFormat) new NvmCodec(field -> null).postingsFormat();
    NullPointerException e =
        expectThrows(NullPointerException.class, () -> perField.getPostingsFormatForField("body"));
    assertTrue(e.getMessage(), e.getMessage().contains("no postings format for field body"));
  }
}
