package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.FfmPoolBackend;
import org.lucenenvm.store.InvalidPoolException;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolPaths;
import org.lucenenvm.store.PowerFailureSimulator;

/**
 * Power failures while the ingest log appends, truncates, wraps around, closes and reopens,
 * simulated by {@link PowerFailureSimulator}: in every image a power failure could leave, the log
 * recovers with every acknowledged record that was not reclaimed, with its content, and nothing
 * else but records that were in flight.
 */
public class IngestLogPowerFailureTest extends LuceneTestCase {
  private static final long POOL = 512 * 1024;
  private static final String LOG = "ingest.log";
  private static final long CAPACITY = 4096;

  /** What the workload had acknowledged when a crash point was reached. */
  private static final class Acknowledged {
    final Map<Long, String> records = new ConcurrentHashMap<>(); // sequence -> id
    final Set<String> started = ConcurrentHashMap.newKeySet();
    volatile long reclaimedThrough; // truncate returned
    volatile long reclaiming; // truncate called, maybe in flight
  }

  private static byte[] document(String id) {
    byte[] bytes = new byte[Math.floorMod(id.hashCode(), 300)];
    Arrays.fill(bytes, (byte) id.hashCode());
    return bytes;
  }

  /** Every persist point of a single writer that truncates, wraps around and reopens. */
  public void testEveryPersistPointOfOneWriter() throws Exception {
    Acknowledged acked = new Acknowledged();
    Checker checker = new Checker(acked, 1.0, 1);
    Random random = new Random(random().nextLong());
    runOnSimulatedPool(
        checker,
        dir -> {
          IngestLog log = IngestLog.open(dir, LOG, CAPACITY, Duration.ZERO);
          for (int n = 0; n < 150; n++) {
            if (n % 50 == 49) {
              log.close();
              log = IngestLog.open(dir, LOG, CAPACITY, Duration.ZERO);
            }
            if (random.nextInt(5) == 0 || log.usedBytes() > CAPACITY / 2) {
              long through = log.lastSequence() - random.nextInt(3);
              if (through >= log.firstSequence()) {
                acked.reclaiming = through;
                log.truncate(through);
                acked.reclaimedThrough = through;
              }
            }
            String id = "doc" + n;
            acked.started.add(id);
            long seq = log.append(LogOperation.values()[n % 3], id, document(id));
            acked.records.put(seq, id);
          }
          log.close();
        });
    assertTrue("crash points checked: " + checker.points, checker.points > 150);
    assertTrue("some images end in a torn record", checker.tornTails > 0);
  }

  /** Sampled persist points of three concurrent writers (group commit) that also reclaim. */
  public void testSampledPersistPointsOfConcurrentWriters() throws Exception {
    Acknowledged acked = new Acknowledged();
    Checker checker = new Checker(acked, 0.2, 1);
    runOnSimulatedPool(
        checker,
        dir -> {
          try (IngestLog log = IngestLog.open(dir, LOG, CAPACITY * 4, Duration.ofSeconds(30))) {
            ExecutorService exec = Executors.newFixedThreadPool(3);
            try {
              List<Future<?>> writers = new ArrayList<>();
              for (int t = 0; t < 3; t++) {
                int thread = t;
                writers.add(
                    exec.submit(
                        () -> {
                          for (int i = 0; i < 100; i++) {
                            String id = "t" + thread + "-" + i;
                            acked.started.add(id);
                            acked.records.put(log.append(LogOperation.ADD, id, document(id)), id);
                            if (log.usedBytes() > log.capacity() / 2) {
                              synchronized (acked) {
                                long through = log.lastSequence() - 5;
                                if (through >= log.firstSequence()) {
                                  acked.reclaiming = through;
                                  log.truncate(through);
                                  acked.reclaimedThrough = through;
                                }
                              }
                            }
                          }
                          return null;
                        }));
              }
              for (Future<?> f : writers) {
                f.get(120, TimeUnit.SECONDS);
              }
            } finally {
              exec.shutdown();
              assertTrue(exec.awaitTermination(60, TimeUnit.SECONDS));
            }
          }
        });
    assertTrue("crash points checked: " + checker.points, checker.points > 20);
  }

  @FunctionalInterface
  private interface Workload {
    void run(NvmDirectory dir) throws Exception;
  }

  private void runOnSimulatedPool(Checker checker, Workload workload) throws Exception {
    Path dir = PoolPaths.imageDir(createTempDir("pool"));
    checker.imageDir = dir;
    PowerFailureSimulator simulator = new PowerFailureSimulator(checker);
    try (NvmHeap heap = NvmHeap.open(dir.resolve("index.pool"), POOL, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
        NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
      workload.run(nvm);
      checker.atCrashPoint(simulator.crashPointNow());
    } finally {
      PoolPaths.deleteImages(dir);
    }
  }

  /** Checks the images of (a sample of) the crash points. */
  private static final class Checker implements PowerFailureSimulator.CrashPointListener {
    private final Acknowledged acked;
    private final double sampling;
    private final int randomImages;
    private final Random random = new Random(random().nextLong());
    Path imageDir;
    int points;
    int tornTails;
    private int images;

    Checker(Acknowledged acked, double sampling, int randomImages) {
      this.acked = acked;
      this.sampling = sampling;
      this.randomImages = randomImages;
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      if (random.nextDouble() >= sampling) {
        return;
      }
      points++;
      // What was acknowledged before the crash: read before the image is taken.
      Map<Long, String> records = new HashMap<>(acked.records);
      long reclaimedThrough = acked.reclaimedThrough;
      long reclaiming = acked.reclaiming;
      long lastAcked = records.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
      List<LongPredicate> kinds = new ArrayList<>(List.of(PowerFailureSimulator.noDirtyLines()));
      if (point.dirtyLines().length > 0) {
        kinds.add(PowerFailureSimulator.allDirtyLines());
      }
      for (int i = 0; i < randomImages && point.dirtyLines().length > 1; i++) {
        kinds.add(PowerFailureSimulator.randomDirtyLines(new Random(random.nextLong())));
      }
      for (int k = 0; k < kinds.size(); k++) {
        String where = "crash point " + point.index() + ", image " + k + " of " + point.dirtyLines().length + " dirty lines";
        Path image = imageDir.resolve("image" + (images++ % 2) + ".pool");
        point.writeImage(image, kinds.get(k));
        // Other writers go on storing while the image is written, so it may hold a truncation
        // begun after the values above were read; none begun after this read.
        long reclaimingAfterImage = acked.reclaiming;
        NvmHeap heap;
        try {
          heap = NvmHeap.open(image, 0, NvmHeap.OpenMode.OPEN, new FfmPoolBackend());
        } catch (InvalidPoolException blank) { // a crash while the pool was formatted
          assertEquals(where + ": " + blank.getMessage(), 0, lastAcked);
          continue;
        }
        try (heap;
            NvmDirectory dir = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
          if (!Arrays.asList(dir.listAll()).contains(LOG)) {
            assertEquals(where + ": log file lost", 0, lastAcked);
            continue;
          }
          try (IngestLog log = IngestLog.open(dir, LOG, 0, Duration.ZERO)) {
            if (log.recovery().tornTail() != null) {
              tornTails++;
            }
            long first = log.firstSequence();
            assertTrue(
                where + ": head at " + first + ", reclaimed through " + reclaimedThrough
                    + " (in flight " + reclaiming + ", begun by the end of the image " + reclaimingAfterImage + ")",
                first >= reclaimedThrough + 1 && first <= Math.max(reclaiming, reclaimingAfterImage) + 1);
            assertTrue(where + ": last " + log.lastSequence() + " < acknowledged " + lastAcked, log.lastSequence() >= lastAcked);
            IngestLog.Cursor cursor = log.read(first);
            long expected = first;
            for (LogRecord r; (r = cursor.next()) != null; expected++) {
              assertEquals(where, expected, r.sequence());
              String id = records.get(r.sequence());
              if (id != null) {
                assertEquals(where, id, r.id());
              } else {
                assertTrue(where + ": record " + r.sequence() + " " + r.id() + " was never appended", acked.started.contains(r.id()));
              }
              assertArrayEquals(where, document(r.id()), r.document());
            }
            assertEquals(where, log.lastSequence() + 1, expected);
            // The recovered log takes new records.
            long seq = log.append(LogOperation.DELETE, "after-crash", new byte[0]);
            assertEquals(log.lastSequence(), seq);
          }
        }
      }
    }
  }
}
