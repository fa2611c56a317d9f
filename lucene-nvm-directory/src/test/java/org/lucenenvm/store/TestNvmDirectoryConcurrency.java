package org.lucenenvm.store;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Listing files while another thread creates and deletes them, as a merging engine does. */
public class TestNvmDirectoryConcurrency extends LuceneTestCase {

  public void testListAllWhileFilesComeAndGo() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(PoolPaths.poolIn(createTempDir("list")), 32L << 20)) {
      AtomicBoolean stop = new AtomicBoolean();
      Thread churn =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 3000; i++) {
                    String name = "f" + i;
                    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
                      out.writeInt(i);
                    }
                    if (i >= 10) {
                      dir.deleteFile("f" + (i - 10));
                    }
                  }
                } catch (Exception e) {
                  throw new AssertionError(e);
                } finally {
                  stop.set(true);
                }
              });
      churn.start();
      int lists = 0;
      while (!stop.get()) {
        String[] names = dir.listAll();
        for (int i = 1; i < names.length; i++) {
          assertTrue("sorted and distinct", names[i - 1].compareTo(names[i]) < 0);
        }
        lists++;
      }
      churn.join();
      assertTrue(lists > 0);
      assertEquals(10, dir.listAll().length);
    }
  }
}
