package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * What survives: commits made by another JVM, SIGKILL at random moments, and a pool that runs
 * out of space.
 */
public class TestNvmDirectoryDurability extends LuceneTestCase {
  private static final long POOL_SIZE = 256L * 1024 * 1024;

  public void testCommitInOneJvmReopenInAnother() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("reopen"));
    try (ChildJvm child = new ChildJvm(IndexingChild.class, pool.toString(), Long.toString(POOL_SIZE), "500", "4")) {
      String line;
      String last = null;
      while ((line = child.readLine()) != null) {
        last = line;
      }
      assertEquals("DONE", last);
      assertEquals(0, child.waitFor());
    }
    assertCommittedPrefix(pool, 2000);
  }

  public void testSigkillAtRandomMomentsLosesNoCommit() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("crash"));
    int kills = 20;
    int committed = 0;
    for (int round = 0; round < kills; round++) {
      try (ChildJvm child = new ChildJvm(IndexingChild.class, pool.toString(), Long.toString(POOL_SIZE), "200", "-1")) {
        String first = child.readLine();
        assertNotNull("child ended before its first commit", first);
        committed = Math.max(committed, Integer.parseInt(first.substring("COMMITTED ".length())));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random().nextInt(400));
        while (System.nanoTime() < deadline) {
          String line = child.readLine();
          committed = Math.max(committed, Integer.parseInt(line.substring("COMMITTED ".length())));
        }
        child.kill();
      }
      int found = assertCommittedPrefix(pool, committed);
      assertTrue(found >= committed);
      committed = found;
    }
  }

  /**
   * Opens the pool, checks the index with CheckIndex and that it holds exactly the ids [0, n) for
   * some n >= {@code atLeast}; returns n.
   */
  private int assertCommittedPrefix(Path pool, int atLeast) throws IOException {
    try (NvmDirectory dir = NvmDirectory.open(pool, 0)) {
      TestUtil.checkIndex(dir);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        int n = reader.numDocs();
        assertTrue("committed " + atLeast + " documents, found " + n, n >= atLeast);
        IndexSearcher searcher = new IndexSearcher(reader);
        for (int id = 0; id < n; id++) {
          assertEquals("id " + id, 1, searcher.count(new TermQuery(new Term("id", Integer.toString(id)))));
        }
        return n;
      }
    }
  }

  public void testFullPoolFailsWithSizesAndKeepsEarlierCommits() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("full"));
    long small = 4L * 1024 * 1024;
    int committed = 0;
    java.util.Random random = new java.util.Random(random().nextLong());
    try (NvmDirectory dir = NvmDirectory.open(pool, small)) {
      IndexWriter writer =
          new IndexWriter(
              dir, new IndexWriterConfig(new StandardAnalyzer()).setMergeScheduler(new SerialMergeScheduler()));
      Exception full = null;
      try {
        for (int batch = 0; batch < 10_000 && full == null; batch++) {
          for (int i = 0; i < 500; i++) {
            writer.addDocument(IndexingChild.document(committed + i, random));
          }
          writer.commit();
          committed += 500;
        }
      } catch (IOException | IllegalStateException e) {
        full = e;
      } finally {
        if (writer.getTragicException() != null && full != null && writer.getTragicException() != full) {
          full.addSuppressed(writer.getTragicException());
        }
        if (writer.isOpen()) {
          writer.rollback();
        }
      }
      PoolFullException cause = findCause(full, PoolFullException.class);
      assertNotNull("expected the pool to fill up, got " + full, cause);
      assertTrue(cause.getMessage(), cause.getMessage().matches(".*cannot allocate \\d+ bytes.*of \\d+ bytes free.*"));
      assertTrue("some commits fit before the pool filled up", committed > 0);
    }
    assertCommittedPrefix(pool, committed);
    try (NvmDirectory dir = NvmDirectory.open(pool, small);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      assertEquals(committed, reader.numDocs());
    }
  }

  public void testFullPoolStillDeletesAfterReopen() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("full-reopen"));
    long size = 2L * 1024 * 1024;
    byte[] block = new byte[64 * 1024];
    java.util.List<String> names = new java.util.ArrayList<>();
    try (NvmDirectory dir = NvmDirectory.open(pool, size)) {
      expectThrows(
          PoolFullException.class,
          () -> {
            for (int i = 0; ; i++) {
              String name = "f" + i;
              try (org.apache.lucene.store.IndexOutput out =
                  dir.createOutput(name, org.apache.lucene.store.IOContext.DEFAULT)) {
                out.writeBytes(block, block.length);
              }
              dir.sync(java.util.List.of(name));
              names.add(name);
            }
          });
    }
    assertFalse(names.isEmpty());
    try (NvmDirectory dir = NvmDirectory.open(pool, 0)) {
      long free = dir.freeBytes();
      dir.deleteFile(names.get(0)); // publishes into the spare block reserved before the restart
      assertTrue(dir.freeBytes() > free);
      // The file being written when the pool filled up was never synced: it is gone.
      assertEquals(names.size() - 1, dir.listAll().length);
    }
    try (NvmDirectory dir = NvmDirectory.open(pool, 0)) {
      assertFalse(java.util.Arrays.asList(dir.listAll()).contains(names.get(0)));
      assertTrue(java.util.Arrays.asList(dir.listAll()).contains(names.get(names.size() - 1)));
    }
  }

  private static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
      for (Throwable s : c.getSuppressed()) {
        T found = findCause(s, type);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
