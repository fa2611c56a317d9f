package org.lucenenvm.codec;

import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.store.ChildJvm;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * The uncompressed postings in their intended home: an index written with {@link NvmCodec} into
 * an {@link NvmDirectory} passes CheckIndex, survives merges, and reads back identically in a new
 * JVM.
 */
public class TestNvmCodecOnNvmDirectory extends LuceneTestCase {

  public void testIndexMergeAndReopenInNewJvm() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("codec-on-nvm"));
    RandomDocs docs = new RandomDocs(random(), 300);
    int numDocs = atLeast(2000);
    String expected;
    try (NvmDirectory dir = NvmDirectory.open(pool, 256L << 20)) {
      IndexWriterConfig config =
          new IndexWriterConfig(RandomDocs.analyzer(random()))
              .setCodec(new NvmCodec())
              .setMaxBufferedDocs(TestUtil.nextInt(random(), 100, 400))
              .setMergePolicy(new TieredMergePolicy());
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int id = 0; id < numDocs; id++) {
          writer.addDocument(docs.next(id));
          if (id % 11 == 5) {
            writer.deleteDocuments(new Term(RandomDocs.ID, Integer.toString(id - 3)));
          }
        }
        writer.commit();
        TestUtil.checkIndex(dir);
        writer.forceMerge(1);
      }
      expected = NvmIndexSummary.summarize(dir);
    }
    assertTrue(expected, expected.startsWith("clean=true docs=" + (numDocs - numDeleted(numDocs))));

    try (ChildJvm child = new ChildJvm(NvmIndexSummary.class, pool.toString())) {
      assertEquals(expected, child.readLine());
      assertEquals(0, child.waitFor());
    }
  }

  private static int numDeleted(int numDocs) {
    int deleted = 0;
    for (int id = 0; id < numDocs; id++) {
      if (id % 11 == 5) {
        deleted++;
      }
    }
    return deleted;
  }
}
