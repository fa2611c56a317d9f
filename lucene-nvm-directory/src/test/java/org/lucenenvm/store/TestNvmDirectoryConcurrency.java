package org.lucenenvm.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Listing files while another thread creates and deletes them, as a merging engine does; syncing
 * one file from two threads.
 */
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

  /**
   * A sync that finds its file already persisted by a concurrent sync must not return before a
   * published file table names the file: at every persist of the first sync, a second sync of the
   * same file is started, and if it returns while the first is held there, the pool a power failure
   * would leave at that moment must hold the file. (Whether the second one blocks or does the work
   * itself depends on where the first is held; either way it must not return early.)
   */
  public void testSecondSyncOfAFileReturnsOnlyOnceItIsPublished() throws Exception {
    Path dir = PoolPaths.poolIn(createTempDir("sync")).getParent();
    Path image = dir.resolve("image.pool");
    AtomicReference<NvmDirectory> directory = new AtomicReference<>();
    AtomicReference<Thread> firstSync = new AtomicReference<>();
    List<Thread> secondSyncs = new ArrayList<>();
    PowerFailureSimulator simulator =
        new PowerFailureSimulator(
            point -> {
              if (Thread.currentThread() != firstSync.get()) {
                return;
              }
              Thread second = new Thread(() -> syncUnchecked(directory.get(), "f"));
              secondSyncs.add(second);
              second.start();
              if (doneOrBlocked(second)) {
                point.writeImage(image, PowerFailureSimulator.noDirtyLines());
                try (NvmDirectory crashed = NvmDirectory.open(image, 0)) {
                  assertTrue(
                      "a sync of f returned at crash point " + point.index() + " but f is not durable",
                      Arrays.asList(crashed.listAll()).contains("f"));
                  assertEquals(8, crashed.fileLength("f"));
                }
              }
            });
    try (NvmHeap heap =
            NvmHeap.open(dir.resolve("p.pool"), 2L << 20, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
        NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
      directory.set(nvm);
      try (IndexOutput out = nvm.createOutput("f", IOContext.DEFAULT)) {
        out.writeLong(42L);
      }
      firstSync.set(Thread.currentThread());
      nvm.sync(List.of("f"));
      firstSync.set(null);
      for (Thread second : secondSyncs) {
        second.join();
      }
    }
    assertFalse("the first sync persisted nothing", secondSyncs.isEmpty());
  }

  private static void syncUnchecked(NvmDirectory dir, String name) {
    try {
      dir.sync(List.of(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code thread} has ended (true) or is blocked on a monitor (false). */
  private static boolean doneOrBlocked(Thread thread) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (thread.isAlive()) {
      if (thread.getState() == Thread.State.BLOCKED) {
        return false;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("second sync neither returned nor blocked: " + thread.getState());
      }
      Thread.onSpinWait();
    }
    return true;
  }
}
