package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongPredicate;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.realtime.CrashConsistentEngine.Acknowledged;
import org.lucenenvm.realtime.CrashConsistentEngine.Op;
import org.lucenenvm.realtime.CrashConsistentEngine.Snapshot;
import org.lucenenvm.store.CrashImages;
import org.lucenenvm.store.InvalidPoolException;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolBackend;
import org.lucenenvm.store.PoolPaths;
import org.lucenenvm.store.PowerFailureSimulator;

/**
 * Power failures under a crash-consistent engine, simulated by {@link PowerFailureSimulator}: a
 * seeded workload of adds, updates and deletes crosses flush, engrave, checkpoint, merge and log
 * reuse; at its persist points the images a power failure could leave (no unpersisted store
 * survives, all do, a random half of the cache lines do) are opened by a new engine, which must
 * hold exactly the acknowledged operations (or those plus the one in flight) and accept no damaged
 * structure; and so must every image of every persist point of the recovery (a new engine opening
 * and closing) of sampled images.
 */
public class RtEnginePowerFailureTest extends LuceneTestCase {
  private static final long POOL = 24L << 20;
  private static final int SEGMENT_SIZE = 8;
  private static final RtEngineConfig CONFIG =
      CrashConsistentEngine.config().withSegmentSize(SEGMENT_SIZE);

  /** The next operation of a workload, given the acknowledged state and its number. */
  @FunctionalInterface
  private interface Workload {
    Op next(Random random, Map<String, String> state, int n);
  }

  public void testEveryPersistPointOfAShortRun() throws Exception {
    Checker checker = run(CONFIG, CrashConsistentEngine::randomOp, 30, 0, 1.0, 0);
    assertTrue("persist points checked: " + checker.points, checker.points > 60);
    assertTrue("points with operations replayed: " + checker.replaying, checker.replaying > 10);
  }

  /**
   * The recovery of sampled images crashed in turn: a new engine opens the image (replaying the
   * log, writing its manifest) and closes under a simulator, and every image of every persist
   * point of that recovery must hold the same operations.
   */
  public void testPersistPointsOfRecoveries() throws Exception {
    Checker checker = run(CONFIG, CrashConsistentEngine::randomOp, 30, 0, 0.2, 60);
    assertTrue("recovery persist points checked: " + checker.recoveryPoints, checker.recoveryPoints >= 60);
  }

  @Nightly
  public void testSampledPersistPointsOfALongerRun() throws Exception {
    Checker checker = run(CONFIG, CrashConsistentEngine::randomOp, 1500, 0, 0.25, 300);
    assertTrue("persist points checked: " + checker.points, checker.points >= 1000);
    assertTrue("recovery persist points checked: " + checker.recoveryPoints, checker.recoveryPoints >= 300);
  }

  /**
   * Deletes alone: 8 adds (two segments: a 4 KB record takes a quarter of the log's share), then 8
   * deletes, which take a share of the log every 4 deletes; half the persist points of the deletes
   * (about 80) are checked, so the checkpoints they ask for (manifest write, then log truncation)
   * are crossed.
   */
  public void testPersistPointsOfDeletesAlone() throws Exception {
    int adds = 8;
    String prefix = "d".repeat(4000);
    Workload addsThenDeletes =
        (random, state, n) ->
            n < adds
                ? new Op(LogOperation.ADD, prefix + n, "v" + n)
                : new Op(LogOperation.DELETE, state.keySet().iterator().next(), null);
    Checker checker = run(CONFIG, addsThenDeletes, 2 * adds, adds, 0.5, 0);
    assertTrue("persist points checked: " + checker.points, checker.points > 16);
  }

  /**
   * Merges that keep their sources' deleted documents masked: every persist point from the first
   * operation after a merged segment holds deletions on (the merge's writes, its manifest, later
   * deletes reaching it, the frees of its sources) leaves the sources with their deletions or the
   * merged segment with all of them, and no deleted document is resurrected. 24 adds (three
   * segments), then deletes and updates of them, alternating with adds.
   */
  public void testPersistPointsOfMergesKeepingDeletions() throws Exception {
    int adds = 24;
    Workload addsThenChanges =
        (random, state, n) -> {
          if (n < adds || n % 2 == 0) {
            return new Op(LogOperation.ADD, "a" + n, "v" + n);
          }
          String id = state.keySet().stream().skip(random.nextInt(state.size())).findFirst().get();
          return new Op(
              random.nextBoolean() ? LogOperation.DELETE : LogOperation.UPDATE, id, "v" + n);
        };
    Checker checker =
        run(
            CONFIG.withCodec(new NvmCodec())
                .withLinkedMerges(true)
                .withMergeDeletesPctAllowed(100), // linked merges, which keep deletions
            addsThenChanges,
            56,
            adds,
            0.5,
            20);
    assertTrue("persist points checked: " + checker.points, checker.points > 40);
    assertTrue("no merge kept deletions", checker.mergedWithDeletions > 0);
  }

  /**
   * Runs {@code operations} of {@code workload}, checking the persist points from operation {@code
   * checkFrom} on, and crashing the recoveries of checked images until they had {@code
   * recoveryBudget} persist points.
   */
  private Checker run(
      RtEngineConfig config,
      Workload workload,
      int operations,
      int checkFrom,
      double sampling,
      int recoveryBudget)
      throws Exception {
    Random random = new Random(random().nextLong());
    Acknowledged acked = new Acknowledged();
    Path dir = PoolPaths.imageDir(createTempDir("pf"));
    Checker checker =
        new Checker(config, acked, dir, sampling, recoveryBudget, new Random(random.nextLong()));
    checker.armed = checkFrom == 0; // from the pool's creation on
    PowerFailureSimulator simulator = new PowerFailureSimulator(checker);
    try (NvmHeap heap =
            NvmHeap.open(dir.resolve("index.pool"), POOL, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
        NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
      try (RtEngine engine = RtEngine.open(nvm, config)) {
        for (int i = 0; i < operations; i++) {
          checker.armed |= i == checkFrom;
          acked.run(engine, workload.next(random, acked.state(), i));
          checker.mergedWithDeletions += KeptDeletionsDifferentialTest.mergedWithDeletions(engine);
        }
        assertTrue(engine.segments().toString(), engine.segments().size() > 1);
      }
      checker.atCrashPoint(simulator.crashPointNow());
    } finally {
      PoolPaths.deleteImages(dir);
    }
    if (checker.failure != null) {
      throw checker.failure;
    }
    return checker;
  }

  /** Opens the images of (a sample of) the crash points and checks them. */
  private static final class Checker implements PowerFailureSimulator.CrashPointListener {
    private final RtEngineConfig config;
    private final Acknowledged acked;
    private final Path dir;
    private final double sampling;
    private final int recoveryBudget;
    private final Random random;
    private final CrashImages recoveries;
    private final CrashImages nested;
    /** Whether crash points are checked yet (set by the writer, read in its persists). */
    volatile boolean armed;
    int points;
    int replaying;
    int recoveryPoints;
    /** Merged segments holding deletions, summed over the operations (written by the writer). */
    int mergedWithDeletions;
    private int images;
    volatile AssertionError failure;

    Checker(
        RtEngineConfig config,
        Acknowledged acked,
        Path dir,
        double sampling,
        int recoveryBudget,
        Random random) {
      this.config = config;
      this.acked = acked;
      this.dir = dir;
      this.sampling = sampling;
      this.recoveryBudget = recoveryBudget;
      this.random = random;
      this.recoveries = new CrashImages(dir, "recovery", new Random(random.nextLong()));
      this.nested = new CrashImages(dir, "nested", new Random(random.nextLong()));
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      if (!armed || failure != null || random.nextDouble() >= sampling) {
        return;
      }
      points++;
      // The crash state is the stores made when the dirty lines are read; the writer may start
      // its next operation (store its log record) until then, but cannot have it acknowledged
      // (persists wait for this listener): so what is acknowledged, and in flight, is read after.
      long dirty = point.dirtyLines().length;
      Snapshot expected = acked.snapshot();
      List<LongPredicate> kinds = CrashImagePool.survivorSets(dirty, random);
      for (int k = 0; k < kinds.size(); k++) {
        String where = "crash point " + point.index() + ", image " + k + " of " + dirty + " dirty lines";
        Path image = dir.resolve("image" + (images++ % 2) + ".pool");
        point.writeImage(image, kinds.get(k));
        boolean holdsPool = check(image, where, expected);
        if (holdsPool && failure == null && recoveryPoints < recoveryBudget && random.nextBoolean()) {
          recoveryPoints +=
              recoveries.crashRecovery(
                  image, where, this::recover, nested, (crashed, at) -> check(crashed, at, expected));
        }
        if (failure != null) {
          return;
        }
      }
    }

    /**
     * Records a failure (never throws: it may run on an engine thread) unless a new engine opened
     * on {@code image} holds {@code expected}; returns whether the image holds a pool (power may
     * have failed while the pool was formatted, before anything was acknowledged).
     */
    private boolean check(Path image, String where, Snapshot expected) {
      try (NvmDirectory nvm = NvmDirectory.open(image, 0);
          RtEngine engine = RtEngine.open(nvm, config)) {
        expected.assertHeldBy(engine, where);
        if (engine.recoveries().get(0).operationsReplayed() > 0) {
          replaying++;
        }
      } catch (InvalidPoolException blank) { // power failed while the pool was formatted
        if (!expected.state().isEmpty()) {
          failure = new AssertionError(where + ": " + blank.getMessage(), blank);
        }
        return false;
      } catch (AssertionError e) {
        failure = e;
      } catch (Exception e) {
        failure = new AssertionError(where + ": recovery refused the image: " + e, e);
      }
      return true;
    }

    /** A restart: a new engine opens the pool (replaying its log) and closes. */
    private void recover(Path pool, PoolBackend backend) throws IOException {
      try (NvmHeap heap = NvmHeap.open(pool, 0, NvmHeap.OpenMode.OPEN, backend);
          NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory());
          RtEngine engine = RtEngine.open(nvm, config)) {
        // opening replays the log and writes the manifest; closing persists what the engine holds
      }
    }
  }
}
