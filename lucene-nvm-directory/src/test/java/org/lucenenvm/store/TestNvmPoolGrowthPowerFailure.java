package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.SuppressSysoutChecks;
import org.apache.lucene.tests.util.LuceneTestCase.Nightly;

/**
 * Power failures while a pool grows in place and while a crashed pool is recovered, simulated by
 * {@link PowerFailureSimulator}. A pool left by a crash (synced files, unsynced ones, dirty lines)
 * is opened with four times its size, or opened at its size with a {@link PoolGrowth} that grows
 * it while open in steps of half its size up to four times it, and used: files that need the new
 * space are written and synced, old ones deleted. Every image of every crash point of that run
 * must open as the old pool or a grown one, never smaller than the last growth that returned, and
 * hold exactly the files whose sync or delete returned, byte for byte (a file whose sync or delete
 * is in flight either way); the images of a pool grown while open are one chunk when they open.
 * Sampled images are recovered under a simulator in turn (growing them or not as the run did,
 * repairing a torn size switch, marking them open and closed), and every image of every crash
 * point of that recovery must hold the same.
 */
@SuppressSysoutChecks(bugUrl = "PoolGrower logs each growth of a pool at INFO")
public class TestNvmPoolGrowthPowerFailure extends LuceneTestCase {
  private static final long OLD_SIZE = 1L << 20;
  private static final long NEW_SIZE = 4 * OLD_SIZE;
  private static final PoolGrowth ONLINE = new PoolGrowth(NEW_SIZE, OLD_SIZE / 2, 25, 0);

  /** Every persist point of a growth and of the recoveries of its images. */
  public void testEveryPersistPointOfAGrowthAndItsRecoveries() throws Exception {
    GrowthRun run = new GrowthRun(1.0, 0.25, false);
    try {
      run.run(3, Integer.MAX_VALUE);
    } finally {
      run.close();
    }
    assertTrue("a crash point before the new size is durable, one after", run.oldSizeImages > 0 && run.newSizeImages > 0);
    assertTrue("too few recovery crash points: " + run.recoveryPoints, run.recoveryPoints > 10);
    assertEquals("every crash point checked", run.calls, run.points);
  }

  /** Every persist point of growths while the pool is open and of the recoveries of their images. */
  public void testEveryPersistPointOfOnlineGrowthsAndTheirRecoveries() throws Exception {
    GrowthRun run = new GrowthRun(1.0, 0.25, true);
    try {
      run.run(3, Integer.MAX_VALUE);
    } finally {
      run.close();
    }
    assertTrue("grew while open more than once: " + run.onlineGrowths, run.onlineGrowths > 1);
    assertTrue("a crash point before the first growth is durable, one after", run.oldSizeImages > 0 && run.newSizeImages > 0);
    assertTrue("too few recovery crash points: " + run.recoveryPoints, run.recoveryPoints > 10);
    assertEquals("every crash point checked", run.calls, run.points);
  }

  /** At least 1,000 sampled crash points, recovery points included (nightly only). */
  @Nightly
  public void testThousandSampledPointsOfGrowthsAndRecoveries() throws Exception {
    int points = 0;
    int recoveryPoints = 0;
    for (int runs = 0; points + recoveryPoints < 1000; runs++) {
      GrowthRun run = new GrowthRun(0.5, 0.5, runs % 2 == 1);
      try {
        run.run(20, Integer.MAX_VALUE);
      } finally {
        run.close();
      }
      points += run.points;
      recoveryPoints += run.recoveryPoints;
    }
    assertTrue(recoveryPoints > 0);
  }

  /** One seeded run: a crashed pool, its growth under a simulator, the checks. */
  private final class GrowthRun implements PowerFailureSimulator.CrashPointListener, AutoCloseable {
    private final double sampling;
    private final double recoverySampling;
    /** Growth while open ({@link #ONLINE}) rather than at open. */
    private final boolean online;
    private volatile NvmHeap heap;
    private final Random random = new Random(random().nextLong());
    private final Path dir;
    private final CrashImages images;
    private final CrashImages nested;
    /** Files whose sync or delete returned: name → bytes. */
    private final Map<String, byte[]> acked = new TreeMap<>();
    /** The operation in flight: name → bytes after it (null: deleted). */
    private final Map<String, byte[]> inFlight = new HashMap<>();
    private boolean grown;
    int calls;
    int points;
    int recoveryPoints;
    int oldSizeImages;
    int newSizeImages;
    int onlineGrowths;

    GrowthRun(double sampling, double recoverySampling, boolean online) throws IOException {
      this.sampling = sampling;
      this.recoverySampling = recoverySampling;
      this.online = online;
      this.dir = PoolPaths.imageDir(createTempDir("growth"));
      this.images = new CrashImages(dir, "image", new Random(random.nextLong()));
      this.nested = new CrashImages(dir, "nested", new Random(random.nextLong()));
    }

    /** Grows a crashed pool and runs {@code rounds} rounds of writes and deletes in it. */
    void run(int rounds, int maxPoints) throws IOException {
      Path pool = crashedPool();
      PowerFailureSimulator simulator = new PowerFailureSimulator(this);
      try (NvmHeap heap = NvmHeap.open(pool, online ? 0 : NEW_SIZE, NvmHeap.OpenMode.OPEN, simulator);
          NvmDirectory directory =
              new NvmDirectory(heap, new SingleInstanceLockFactory(), online ? ONLINE : PoolGrowth.OFF, new FileSystemRoom(file -> Long.MAX_VALUE))) {
        this.heap = heap;
        grown = true;
        assertEquals(OLD_SIZE, heap.sizeBeforeOpen());
        assertEquals(online ? OLD_SIZE : NEW_SIZE, heap.size());
        for (int r = 0; r < rounds && points < maxPoints; r++) {
          // Larger than the old pool: it can only be in the new space.
          writeAndSync(directory, "big" + r, bytes((int) (OLD_SIZE + random.nextInt((int) (OLD_SIZE / 4)))));
          writeAndSync(directory, "small" + r, bytes(1 + random.nextInt(10_000)));
          if (r > 0) {
            delete(directory, "big" + (r - 1));
          }
          List<String> smallOnes = acked.keySet().stream().filter(name -> !name.startsWith("big")).toList();
          if (random.nextBoolean() && !smallOnes.isEmpty()) {
            delete(directory, smallOnes.get(random.nextInt(smallOnes.size())));
          }
        }
        atCrashPoint(simulator.crashPointNow());
        onlineGrowths = heap.chunkCount() - 1;
      }
      if (VERBOSE) {
        System.out.println(
            "growth run: " + points + " of " + calls + " crash points checked (" + oldSizeImages + " old-size, "
                + newSizeImages + " new-size images), " + recoveryPoints + " recovery crash points");
      }
    }

    /**
     * A pool of the old size that a crash left: synced files (acknowledged), files written and
     * never synced, and whatever dirty lines happened to survive.
     */
    private Path crashedPool() throws IOException {
      Path pool = dir.resolve("pool.pool");
      Path crashed = dir.resolve("crashed.pool");
      PowerFailureSimulator simulator = new PowerFailureSimulator(point -> {});
      try (NvmHeap heap = NvmHeap.open(pool, OLD_SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
          NvmDirectory directory = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        for (int i = 0; i < 6; i++) {
          writeAndSync(directory, "old" + i, bytes(1 + random.nextInt(30_000)));
        }
        for (int i = 0; i < 3; i++) {
          try (IndexOutput out = directory.createOutput("unsynced" + i, IOContext.DEFAULT)) {
            out.writeBytes(bytes(5_000), 5_000);
          }
        }
        simulator.crashPointNow().writeImage(crashed, PowerFailureSimulator.randomDirtyLines(random));
      }
      Files.delete(pool);
      return crashed;
    }

    private void writeAndSync(NvmDirectory directory, String name, byte[] content) throws IOException {
      try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
        out.writeBytes(content, content.length);
      }
      inFlight.put(name, content);
      directory.sync(List.of(name));
      acknowledge();
    }

    private void acknowledge() {
      inFlight.forEach(
          (name, content) -> {
            if (content == null) {
              acked.remove(name);
            } else {
              acked.put(name, content);
            }
          });
      inFlight.clear();
    }

    private void delete(NvmDirectory directory, String name) throws IOException {
      inFlight.put(name, null);
      directory.deleteFile(name);
      acknowledge();
    }

    private byte[] bytes(int length) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      return bytes;
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      calls++;
      if (grown && random.nextDouble() >= sampling) {
        return; // the growth's own crash points are always checked
      }
      points++;
      // The size a growth that returned made durable (a growth's new size is set once it is).
      long acknowledgedSize = online ? (heap == null ? OLD_SIZE : heap.size()) : grown ? NEW_SIZE : OLD_SIZE;
      images.checkEach(
          point,
          (image, where) -> {
            check(image, where, acknowledgedSize);
            if (random.nextDouble() < recoverySampling) {
              recoveryPoints +=
                  images.crashRecovery(
                      image, where, this::recover, nested, (crashed, at) -> check(crashed, at, acknowledgedSize));
            }
          });
    }

    /**
     * A restart: opens the pool (at the new size, completing the growth, unless the run grows it
     * while open) and closes it.
     */
    private void recover(Path pool, PoolBackend backend) throws IOException {
      NvmHeap heap = NvmHeap.open(pool, online ? 0 : NEW_SIZE, NvmHeap.OpenMode.OPEN, backend);
      try (NvmDirectory directory = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        if (!online) {
          assertEquals(NEW_SIZE, directory.heap().size());
        }
      } finally {
        heap.close();
      }
    }

    /** The invariant: the old pool or a grown one, holding exactly the acknowledged files. */
    private void check(Path image, String where, long acknowledgedSize) throws IOException {
      try (NvmDirectory directory = NvmDirectory.open(image, 0)) {
        long size = directory.heap().size();
        assertEquals(where + ": one chunk", 1, directory.heap().chunkCount());
        assertTrue(where + ": the acknowledged growth to " + acknowledgedSize + " bytes is lost (" + size + ")",
            size >= acknowledgedSize);
        if (size == OLD_SIZE) {
          oldSizeImages++;
        } else {
          if (!online) {
            assertEquals(where + ": pool size", NEW_SIZE, size);
          }
          assertTrue(where + ": pool size " + size, size <= NEW_SIZE);
          newSizeImages++;
        }
        TreeSet<String> expected = new TreeSet<>(acked.keySet());
        TreeSet<String> present = new TreeSet<>(Arrays.asList(directory.listAll()));
        for (Map.Entry<String, byte[]> op : inFlight.entrySet()) {
          expected.remove(op.getKey());
          present.remove(op.getKey());
          if (Arrays.asList(directory.listAll()).contains(op.getKey())) {
            byte[] content = op.getValue() != null ? op.getValue() : acked.get(op.getKey());
            assertContent(directory, op.getKey(), content, where);
          }
        }
        assertEquals(where + ": files", expected, present);
        for (String name : expected) {
          assertContent(directory, name, acked.get(name), where);
        }
      }
    }

    private void assertContent(NvmDirectory directory, String name, byte[] content, String where)
        throws IOException {
      try (IndexInput in = directory.openInput(name, IOContext.READONCE)) {
        byte[] read = new byte[(int) in.length()];
        in.readBytes(read, 0, read.length);
        assertArrayEquals(where + ": content of " + name, content, read);
      }
    }

    @Override
    public void close() throws IOException {
      PoolPaths.deleteImages(dir);
    }
  }
}
