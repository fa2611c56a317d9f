package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Power failures while files are cloned ({@link NvmDirectory#copyFrom}) and their shared extents
 * released, simulated by {@link PowerFailureSimulator}. Each round writes a file, clones it before
 * and after it is synced, syncs a clone of the never-synced source (so the clone's sync is what
 * persists the shared bytes), deletes the source, writes a new file into the space, then deletes,
 * renames and syncs the previous round's clones; at the end every file is deleted. Every image of
 * every crash point must open and hold every file whose sync returned and no file whose delete
 * returned, each present file byte for byte (a file never synced may be present if a publication
 * named it), with free plus used bytes (shared extents once) making the pool's capacity.
 */
public class TestNvmClonePowerFailure extends LuceneTestCase {
  private static final long POOL_SIZE = 2L * 1024 * 1024;

  public void testEveryPersistPointOfClonesAndDeletes() throws Exception {
    CloneRun run = new CloneRun(0.1);
    try {
      run.run(3);
    } finally {
      run.close();
    }
    assertTrue("too few crash points: " + run.points, run.points > 40);
    assertTrue("too few recovery crash points: " + run.recoveryPoints, run.recoveryPoints > 0);
    assertTrue("images with a shared extent: " + run.sharedImages, run.sharedImages > 0);
  }

  private final class CloneRun implements PowerFailureSimulator.CrashPointListener, AutoCloseable {
    private final double recoverySampling;
    private final Random random = new Random(random().nextLong());
    private final Path dir;
    private final CrashImages images;
    private final CrashImages nested;
    /** Every file ever written or cloned: name → bytes (names are never reused). */
    private final Map<String, byte[]> contents = new HashMap<>();
    /** Files whose sync (or rename) returned. */
    private final TreeSet<String> acked = new TreeSet<>();
    /** Files written or cloned, not synced, not deleted: present or not after a crash. */
    private final TreeSet<String> unsynced = new TreeSet<>();
    /** The operation in flight: name → true if it will exist after it, false if not. */
    private final Map<String, Boolean> inFlight = new TreeMap<>();
    int points;
    int recoveryPoints;
    int sharedImages;

    CloneRun(double recoverySampling) throws IOException {
      this.recoverySampling = recoverySampling;
      this.dir = PoolPaths.imageDir(createTempDir("clones"));
      this.images = new CrashImages(dir, "image", new Random(random.nextLong()));
      this.nested = new CrashImages(dir, "nested", new Random(random.nextLong()));
    }

    void run(int rounds) throws IOException {
      Path pool = dir.resolve("pool.pool");
      NvmHeap.open(pool, POOL_SIZE).close(); // formatted: the crash points are the workload's
      PowerFailureSimulator simulator = new PowerFailureSimulator(this);
      try (NvmHeap heap = NvmHeap.open(pool, POOL_SIZE, NvmHeap.OpenMode.OPEN, simulator);
          NvmDirectory directory = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        for (int r = 0; r < rounds; r++) {
          write(directory, "src" + r);
          copy(directory, "src" + r, "c" + r);
          sync(directory, "c" + r); // persists the bytes the never-synced source shares
          copy(directory, "src" + r, "d" + r);
          sync(directory, "src" + r);
          copy(directory, "src" + r, "e" + r); // of a persisted source: any publication may name it
          delete(directory, "src" + r);
          write(directory, "n" + r);
          sync(directory, "n" + r);
          sync(directory, "d" + r, "e" + r);
          if (r > 0) {
            delete(directory, "c" + (r - 1));
            rename(directory, "e" + (r - 1), "r" + (r - 1));
            delete(directory, "d" + (r - 1));
          }
        }
        for (String name : directory.listAll()) {
          delete(directory, name);
        }
        atCrashPoint(simulator.crashPointNow());
        assertEquals(PoolAccounting.capacity(directory), directory.freeBytes() + PoolAccounting.tableBytes(directory));
      }
    }

    private void write(NvmDirectory directory, String name) throws IOException {
      byte[] content = new byte[1 + random.nextInt(40_000)];
      random.nextBytes(content);
      try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
        out.writeBytes(content, content.length);
      }
      contents.put(name, content);
      unsynced.add(name);
    }

    private void copy(NvmDirectory directory, String src, String dest) throws IOException {
      directory.copyFrom(directory, src, dest, IOContext.DEFAULT);
      contents.put(dest, contents.get(src));
      unsynced.add(dest);
    }

    private void sync(NvmDirectory directory, String... names) throws IOException {
      Arrays.stream(names).forEach(name -> inFlight.put(name, true));
      directory.sync(List.of(names));
      acknowledge();
    }

    private void delete(NvmDirectory directory, String name) throws IOException {
      inFlight.put(name, false);
      directory.deleteFile(name);
      acknowledge();
    }

    private void rename(NvmDirectory directory, String source, String dest) throws IOException {
      inFlight.put(source, false);
      inFlight.put(dest, true);
      contents.put(dest, contents.get(source));
      directory.rename(source, dest);
      acknowledge();
    }

    private void acknowledge() {
      inFlight.forEach(
          (name, exists) -> {
            unsynced.remove(name);
            if (exists) {
              acked.add(name);
            } else {
              acked.remove(name);
            }
          });
      inFlight.clear();
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      points++;
      images.checkEach(
          point,
          (image, where) -> {
            check(image, where);
            if (random.nextDouble() < recoverySampling) {
              recoveryPoints += images.crashRecovery(image, where, CloneRun::recover, nested, this::check);
            }
          });
    }

    /** A restart: opens the pool and the directory over it, and closes both. */
    private static void recover(Path pool, PoolBackend backend) throws IOException {
      try (NvmHeap heap = NvmHeap.open(pool, 0, NvmHeap.OpenMode.OPEN, backend);
          NvmDirectory directory = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        directory.listAll();
      }
    }

    /**
     * The invariant: the acknowledged files, byte for byte, no file deleted, and the space
     * accounted for.
     */
    private void check(Path image, String where) throws IOException {
      try (NvmDirectory directory = NvmDirectory.open(image, 0)) {
        TreeSet<String> present = new TreeSet<>(Arrays.asList(directory.listAll()));
        for (String name : acked) {
          if (!inFlight.containsKey(name)) {
            assertTrue(where + ": acknowledged file " + name + " lost; present: " + present, present.contains(name));
          }
        }
        for (String name : present) {
          assertTrue(
              where + ": file " + name + " should not exist",
              acked.contains(name) || unsynced.contains(name) || inFlight.containsKey(name));
          assertArrayEquals(where + ": content of " + name, contents.get(name), PoolAccounting.read(directory, name));
        }
        PoolAccounting.assertAccounted(directory, where);
        if (PoolAccounting.extents(directory, where).values().stream().anyMatch(extent -> extent[1] > 1)) {
          sharedImages++;
        }
      }
    }

    @Override
    public void close() throws IOException {
      PoolPaths.deleteImages(dir);
    }
  }
}
