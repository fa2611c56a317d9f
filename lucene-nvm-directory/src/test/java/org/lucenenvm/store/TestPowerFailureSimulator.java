package org.lucenenvm.store;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The simulator itself: which stores survive in the images it writes, by line or by word. */
public class TestPowerFailureSimulator extends LuceneTestCase {
  private static final long SIZE = 64 * 1024;
  private static final long A = 8192;
  private static final long B = 8192 + 64;
  private static final long C = 16384 + 3;

  public void testImagesKeepPersistedStoresAndChosenDirtyLines() throws Exception {
    Path dir = PoolPaths.poolIn(createTempDir("sim")).getParent();
    List<long[]> dirtyAtPersist = new ArrayList<>();
    PowerFailureSimulator simulator =
        new PowerFailureSimulator(point -> dirtyAtPersist.add(point.dirtyLines()));
    try (NvmHeap heap = NvmHeap.open(dir.resolve("p.pool"), SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator)) {
      long formatPersists = simulator.persistCount();
      heap.segment(A, 1).set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
      heap.segment(B, 1).set(ValueLayout.JAVA_BYTE, 0, (byte) 2);
      heap.segment(C, 1).set(ValueLayout.JAVA_BYTE, 0, (byte) 3);
      heap.persist(C, 1);
      assertEquals(formatPersists + 1, simulator.persistCount());
      // At the crash point of that persist, its own line was still dirty.
      assertArrayEquals(new long[] {A / 64, B / 64, C / 64}, dirtyAtPersist.getLast());

      PowerFailureSimulator.CrashPoint now = simulator.crashPointNow();
      assertArrayEquals(new long[] {A / 64, B / 64}, now.dirtyLines());
      now.writeImage(dir.resolve("none.pool"), PowerFailureSimulator.noDirtyLines());
      now.writeImage(dir.resolve("all.pool"), PowerFailureSimulator.allDirtyLines());
      now.writeImage(dir.resolve("onlyB.pool"), line -> line == B / 64);
      assertImage(dir.resolve("none.pool"), 0, 0, 3);
      assertImage(dir.resolve("all.pool"), 1, 2, 3);
      assertImage(dir.resolve("onlyB.pool"), 0, 2, 3);

      Random random = new Random(random().nextLong());
      for (int i = 0; i < 10; i++) {
        now.writeImage(dir.resolve("random.pool"), PowerFailureSimulator.randomDirtyLines(random));
        byte[] bytes = Files.readAllBytes(dir.resolve("random.pool"));
        assertTrue(bytes[(int) A] == 0 || bytes[(int) A] == 1);
        assertTrue(bytes[(int) B] == 0 || bytes[(int) B] == 2);
        assertEquals(3, bytes[(int) C]);
      }
    }
  }

  public void testTornImagesKeepChosenWordsOfALine() throws Exception {
    Path dir = PoolPaths.poolIn(createTempDir("sim")).getParent();
    PowerFailureSimulator simulator = new PowerFailureSimulator(point -> {});
    try (NvmHeap heap = NvmHeap.open(dir.resolve("p.pool"), SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator)) {
      heap.segment(A, 8).set(ValueLayout.JAVA_LONG, 0, 1L);
      heap.segment(A + 8, 8).set(ValueLayout.JAVA_LONG, 0, 2L);
      heap.segment(A + 24, 8).set(ValueLayout.JAVA_LONG, 0, 3L);
      PowerFailureSimulator.CrashPoint now = simulator.crashPointNow();
      assertArrayEquals(new long[] {A / 64}, now.dirtyLines());
      assertArrayEquals(new long[] {A / 8, A / 8 + 1, A / 8 + 3}, now.dirtyWords());
      Path torn = dir.resolve("torn.pool");
      now.writeTornImage(torn, word -> word != A / 8);
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(torn)).order(ByteOrder.nativeOrder());
      assertEquals("lost", 0L, bytes.getLong((int) A));
      assertEquals(2L, bytes.getLong((int) A + 8));
      assertEquals(3L, bytes.getLong((int) A + 24));
    }
  }

  public void testNoImageOfAnUnpersistedHeaderOpens() throws Exception {
    Path dir = PoolPaths.poolIn(createTempDir("sim")).getParent();
    List<Path> images = new ArrayList<>();
    PowerFailureSimulator simulator =
        new PowerFailureSimulator(
            point -> {
              Path image = dir.resolve("format" + images.size() + ".pool");
              point.writeImage(image, PowerFailureSimulator.allDirtyLines());
              images.add(image);
            });
    NvmHeap.open(dir.resolve("p.pool"), SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator).close();
    assertTrue(images.size() >= 3);
    // Crash while formatting: either no pool (blank header) or a valid one, never a damaged one.
    for (Path image : images) {
      try (NvmHeap heap = NvmHeap.open(image, 0, NvmHeap.OpenMode.OPEN, new FfmPoolBackend())) {
        assertEquals(SIZE, heap.size());
      } catch (InvalidPoolException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("holds no pool"));
      }
    }
  }

  private static void assertImage(Path image, int a, int b, int c) throws Exception {
    byte[] bytes = Files.readAllBytes(image);
    assertEquals(SIZE, bytes.length);
    assertEquals(a, bytes[(int) A]);
    assertEquals(b, bytes[(int) B]);
    assertEquals(c, bytes[(int) C]);
  }
}
