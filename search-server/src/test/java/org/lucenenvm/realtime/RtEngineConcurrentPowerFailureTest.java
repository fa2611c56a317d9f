package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongPredicate;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterCodecReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.realtime.CrashConsistentEngine.Acknowledged;
import org.lucenenvm.realtime.CrashConsistentEngine.Op;
import org.lucenenvm.realtime.CrashConsistentEngine.Snapshot;
import org.lucenenvm.store.InvalidPoolException;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolPaths;
import org.lucenenvm.store.PowerFailureSimulator;
import org.lucenenvm.store.PowerFailureSimulator.CrashPoint;
import org.lucenenvm.store.PowerFailureSimulator.CrashPointListener;

/**
 * Power failures ({@link PowerFailureSimulator}) under a crash-consistent engine that three writer
 * threads add to, update and delete from at once ({@link ConcurrentWriters}: ids of their own and
 * shared ones), through flushes, engraves, checkpoints, merges and wraps of a minimal ingest log.
 *
 * <p>At sampled persist points, each image a power failure could leave (no unpersisted line, all,
 * a random half) is opened by a new engine, which must hold every acknowledged operation and, of
 * the operations in flight, any subset: each in-flight operation's id holds its acknowledged body
 * or the one the operation wrote. The recovered engine then passes CheckIndex on its NVM segments
 * and term queries against the model: each id found once or not at all, each document's version
 * token exactly once, each word in exactly as many documents as the model says.
 *
 * <p>One image per point is recovered <em>under the simulator</em> too: sampled persist points of
 * that recovery (restoring, the manifest it writes, replaying the log, the engraves and
 * checkpoints the replay causes) are crashed in turn and their images recovered again, with the
 * same invariant; then the recovered engine takes more concurrent writes and crashes a second time
 * (at a sampled persist point of those writes), and that image is recovered and checked against
 * the recovered state plus the new writes.
 *
 * <p>The run counts the checked crash points that fell in a merge ({@link Merger} on the stack of
 * the persisting thread), with the ingest log's records wrapping around the ring's end ({@link
 * CrashImageFacts#logWrapsAround}), inside a manifest replacement and between its delete and its
 * rename, during a recovery's replay and in a recovery's manifest write, and in-flight operations
 * kept and lost; it fails if any count is zero. Besides the random sample it aims, like the kill
 * loop: until one such point is checked, every persist point in a merge, in a manifest write
 * (until an image caught a pending rename), during a replay and in a recovery's manifest write.
 *
 * <p>Why a snapshot of the model taken after an image was written is the right expectation: an
 * operation is put in flight before it stores anything, and is acknowledged only after a persist
 * covering it, and persists wait while a crash point is checked; so every operation that stored
 * anything in the image is in flight or acknowledged in the snapshot, and every acknowledged one
 * was durable before the crash point.
 */
public class RtEngineConcurrentPowerFailureTest extends LuceneTestCase {
  private static final long POOL = 8L << 20;
  private static final int WRITERS = 3;
  private static final RtEngineConfig CONFIG = CrashConsistentEngine.config().withSegmentSize(8);
  /** The simulator's mapped pool, whose persist calls the listeners. */
  /** The simulator's classes (its mapped chunks are a nested class): a persist there is a crash point. */
  private static final String SIMULATOR = PowerFailureSimulator.class.getName();

  public void testConcurrentWritersAndCrashedRecoveries() throws Exception {
    Counts counts = new Run(new Plan(40, 0.03, 0.03, 3)).execute();
    counts.assertCrossedEverything();
  }

  @Nightly
  public void testSampledPointsOfALongerRun() throws Exception {
    Counts counts = new Run(new Plan(400, 0.03, 0.03, 4)).execute();
    counts.assertCrossedEverything();
    assertTrue(counts.toString(), counts.sampledPoints() >= 1000);
  }

  /**
   * How much a run does.
   *
   * @param operations operations per writer in the first run
   * @param liveSampling share of the first run's persist points that are checked
   * @param recoverySampling share of a crashed recovery's persist points that are checked
   * @param laterOperations operations per writer after a recovery, before the second crash
   */
  private record Plan(int operations, double liveSampling, double recoverySampling, int laterOperations) {}

  /** What a run crossed. */
  private enum Counter {
    LIVE_POINTS,
    LIVE_IMAGES,
    MERGE_POINTS,
    LOG_WRAP_POINTS,
    MANIFEST_REPLACEMENT_POINTS,
    MANIFEST_RENAME_PENDING_POINTS,
    IN_FLIGHT_KEPT,
    IN_FLIGHT_LOST,
    RECOVERY_POINTS,
    RECOVERY_REPLAY_POINTS,
    RECOVERY_MANIFEST_POINTS,
    SECOND_CRASHES,
    NVM_SEGMENTS_CHECKED
  }

  /** Counters, bumped from the threads that persist (listeners) and the test thread. */
  private static final class Counts {
    private final AtomicLongArray values = new AtomicLongArray(Counter.values().length);

    void add(Counter counter, long delta) {
      values.addAndGet(counter.ordinal(), delta);
    }

    long get(Counter counter) {
      return values.get(counter.ordinal());
    }

    long sampledPoints() {
      return get(Counter.LIVE_POINTS) + get(Counter.RECOVERY_POINTS) + get(Counter.SECOND_CRASHES);
    }

    void assertCrossedEverything() {
      for (Counter c :
          List.of(
              Counter.MERGE_POINTS,
              Counter.LOG_WRAP_POINTS,
              Counter.MANIFEST_REPLACEMENT_POINTS,
              Counter.MANIFEST_RENAME_PENDING_POINTS,
              Counter.IN_FLIGHT_KEPT,
              Counter.IN_FLIGHT_LOST,
              Counter.RECOVERY_POINTS,
              Counter.RECOVERY_REPLAY_POINTS,
              Counter.RECOVERY_MANIFEST_POINTS,
              Counter.SECOND_CRASHES,
              Counter.NVM_SEGMENTS_CHECKED)) {
        assertTrue("no crash point crossed " + c + ": " + this, get(c) > 0);
      }
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      for (Counter c : Counter.values()) {
        b.append(b.isEmpty() ? "" : ", ").append(c.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(get(c));
      }
      return b.toString();
    }
  }

  /** A listener that forwards to whichever listener is set now (none: the point is not checked). */
  private static final class Hook implements CrashPointListener {
    volatile CrashPointListener target;

    @Override
    public void atCrashPoint(CrashPoint point) throws IOException {
      CrashPointListener now = target;
      if (now != null) {
        now.atCrashPoint(point);
      }
    }
  }

  /** One run: the writers, the model, the pool images and the checks. */
  private final class Run {
    private final Plan plan;
    private final Random random = new Random(random().nextLong());
    private final ConcurrentWriters writers = new ConcurrentWriters(WRITERS);
    private final Acknowledged acked = new Acknowledged();
    private final Counts counts = new Counts();
    private Path dir;
    /** The first failure; once set, no more points are checked. */
    private volatile AssertionError failure;

    Run(Plan plan) {
      this.plan = plan;
    }

    Counts execute() throws Exception {
      dir = PoolPaths.imageDir(createTempDir("pf-concurrent"));
      Hook hook = new Hook();
      hook.target = this::atLivePoint;
      PowerFailureSimulator simulator = new PowerFailureSimulator(hook);
      try (NvmHeap heap =
              NvmHeap.open(dir.resolve("index.pool"), POOL, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
          NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        try (RtEngine engine = RtEngine.open(nvm, CONFIG)) {
          writers.run(engine, acked, plan.operations(), "a", random.nextLong());
          assertTrue(engine.segments().toString(), engine.segments().size() > 1);
        }
        hook.target = null;
        if (failure == null) {
          checkLivePoint(simulator.crashPointNow(), false); // the state a clean close left
        }
      } finally {
        PoolPaths.deleteImages(dir);
      }
      if (failure != null) {
        throw failure;
      }
      System.out.println(getTestName() + ": " + counts);
      return counts;
    }

    private synchronized void fail(AssertionError e) {
      if (failure == null) {
        failure = e;
      }
    }

    /** A persist point of the first run: checked with probability {@link Plan#liveSampling}. */
    private void atLivePoint(CrashPoint point) throws IOException {
      if (failure != null) {
        return;
      }
      List<StackTraceElement> persisting = engineFrames(Thread.currentThread());
      boolean merging = onStack(persisting, Merger.class, null);
      if (random.nextDouble() < plan.liveSampling()
          || (merging && counts.get(Counter.MERGE_POINTS) == 0)
          || (onStack(persisting, Manifest.class, "write")
              && counts.get(Counter.MANIFEST_RENAME_PENDING_POINTS) == 0)) {
        checkLivePoint(point, merging);
      }
    }

    private void checkLivePoint(CrashPoint point, boolean merging) throws IOException {
      counts.add(Counter.LIVE_POINTS, 1);
      if (merging) {
        counts.add(Counter.MERGE_POINTS, 1);
      }
      long dirty = point.dirtyLines().length;
      List<LongPredicate> survivors = CrashImagePool.survivorSets(dirty, random);
      int deep = random.nextInt(survivors.size());
      Set<Counter> crossed = new HashSet<>();
      for (int k = 0; k < survivors.size() && failure == null; k++) {
        String where = "crash point " + point.index() + ", image " + k + " of " + dirty + " dirty lines";
        Path image = dir.resolve("live.pool");
        point.writeImage(image, survivors.get(k));
        Snapshot expected = acked.snapshot(); // after the image: see the class javadoc
        counts.add(Counter.LIVE_IMAGES, 1);
        CrashImageFacts facts =
            k == deep ? recoverUnderCrashes(image, expected, where) : recover(image, expected, where, true);
        if (facts != null) {
          addIf(crossed, facts.logWrapsAround(), Counter.LOG_WRAP_POINTS);
          addIf(crossed, facts.manifestReplacing(), Counter.MANIFEST_REPLACEMENT_POINTS);
          addIf(crossed, facts.manifestRenamePending(), Counter.MANIFEST_RENAME_PENDING_POINTS);
        }
      }
      crossed.forEach(c -> counts.add(c, 1));
    }

    private static void addIf(Set<Counter> crossed, boolean condition, Counter counter) {
      if (condition) {
        crossed.add(counter);
      }
    }

    /**
     * Opens {@code image} with a new engine and checks it holds {@code expected}; returns the
     * image's facts, or null when the image is not a pool or the check failed (then recorded).
     * {@code countInFlight}: whether to count which in-flight operations survived.
     */
    private CrashImageFacts recover(Path image, Snapshot expected, String where, boolean countInFlight) {
      try (NvmDirectory nvm = NvmDirectory.open(image, 0)) {
        CrashImageFacts facts = CrashImageFacts.of(nvm);
        try (RtEngine engine = RtEngine.open(nvm, CONFIG)) {
          Map<String, String> held = verify(engine, expected, where);
          if (countInFlight) {
            countInFlight(expected, held);
          }
        }
        return facts;
      } catch (Throwable t) {
        recordFailure(t, expected, where);
        return null;
      }
    }

    /**
     * Recovers {@code image} under a power-failure simulator, crashing sampled points of the
     * recovery; then writes more, crashes once more and recovers that image. Returns the image's
     * facts, or null as {@link #recover} does.
     */
    private CrashImageFacts recoverUnderCrashes(Path image, Snapshot expected, String where) {
      Hook hook = new Hook();
      PowerFailureSimulator simulator = new PowerFailureSimulator(hook);
      CrashImageFacts facts;
      SecondCrash second = new SecondCrash(dir.resolve("second.pool"), new Random(random.nextLong()));
      try (NvmHeap heap = NvmHeap.open(image, 0, NvmHeap.OpenMode.OPEN, simulator);
          NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory())) {
        facts = CrashImageFacts.of(nvm);
        hook.target = new RecoveryPoints(expected, Thread.currentThread(), where, new Random(random.nextLong()));
        try (RtEngine engine = RtEngine.open(nvm, CONFIG)) {
          PipelineWaits.durable(engine, 2); // the recovery ends once the replayed segments are recorded
          hook.target = null;
          Map<String, String> held = verify(engine, expected, where + ", recovered under crashes");
          countInFlight(expected, held);
          second.model = new Acknowledged(held);
          hook.target = second;
          writers.run(engine, second.model, plan.laterOperations(), "b", random.nextLong());
          hook.target = null;
          if (second.expected == null) { // no sampled persist point: crash now
            synchronized (simulator) {
              second.take(simulator.crashPointNow());
            }
          }
        }
      } catch (Throwable t) {
        recordFailure(t, expected, where);
        return null;
      }
      counts.add(Counter.SECOND_CRASHES, 1);
      recover(second.image, second.expected, where + ", second crash at point " + second.index, false);
      return facts;
    }

    /** Records {@code t} as the run's failure, unless it is the blank pool of an empty model. */
    private void recordFailure(Throwable t, Snapshot expected, String where) {
      if (t instanceof InvalidPoolException blank && expected.state().isEmpty()) {
        return; // the power failed while the pool was formatted, before anything was acknowledged
      }
      fail(t instanceof AssertionError e ? e : new AssertionError(where + ": recovery failed: " + t, t));
    }

    private void countInFlight(Snapshot expected, Map<String, String> held) {
      for (Op op : expected.inFlight()) {
        boolean kept = Objects.equals(held.get(op.id()), op.bodyAfter());
        counts.add(kept ? Counter.IN_FLIGHT_KEPT : Counter.IN_FLIGHT_LOST, 1);
      }
    }

    /**
     * Checks a recovered engine: the model ({@link Snapshot#assertHeldBy}), CheckIndex on its NVM
     * segments, and term queries; returns what it holds.
     */
    private Map<String, String> verify(RtEngine engine, Snapshot expected, String where) throws Exception {
      Map<String, String> held;
      try {
        held = expected.assertHeldBy(engine, where);
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage() + "; " + engine.recoveries().get(0).describe() + "; segments " + engine.segments(), e);
      }
      counts.add(Counter.NVM_SEGMENTS_CHECKED, checkNvmSegments(engine, where));
      assertTermQueries(engine, held, where);
      return held;
    }

    /** CheckIndex (slow checks) on every NVM segment a snapshot of {@code engine} reads. */
    private static int checkNvmSegments(RtEngine engine, String where) throws IOException {
      int checked = 0;
      try (RtSnapshot snapshot = engine.acquireSnapshot()) {
        for (LeafReaderContext leaf : snapshot.reader().leaves()) {
          if (leaf.reader() instanceof CodecReader codec
              && FilterCodecReader.unwrap(codec) instanceof SegmentReader segment
              && segment.directory() instanceof NamespacedDirectory nvmSegment) {
            try {
              TestUtil.checkReader(codec, CheckIndex.Level.MIN_LEVEL_FOR_SLOW_CHECKS);
            } catch (IOException | RuntimeException e) {
              throw new AssertionError(where + ": CheckIndex failed on NVM segment " + nvmSegment + ": " + e, e);
            }
            checked++;
          }
        }
      }
      return checked;
    }

    /**
     * Term queries against {@code held} (already checked against the model): every id the writers
     * use is found once or not at all, every document's version token exactly once, and every word
     * of the held documents in exactly as many documents.
     */
    private void assertTermQueries(RtEngine engine, Map<String, String> held, String where) throws IOException {
      for (String id : writers.ids()) {
        assertEquals(
            where + ": documents with id " + id,
            held.containsKey(id) ? 1 : 0,
            engine.count(new TermQuery(new Term(RtSchema.ID_FIELD, id))));
      }
      Map<String, Integer> documentsWith = new HashMap<>();
      for (String body : held.values()) {
        String version = body.substring(0, body.indexOf(' '));
        assertEquals(where + ": documents with version " + version, 1, engine.count(bodyTerm(version)));
        for (String word : new HashSet<>(Arrays.asList(body.substring(version.length() + 1).split("[^a-z0-9]+")))) {
          if (!word.isEmpty()) {
            documentsWith.merge(word, 1, Integer::sum);
          }
        }
      }
      for (Map.Entry<String, Integer> e : documentsWith.entrySet()) {
        assertEquals(where + ": documents with word " + e.getKey(), (int) e.getValue(), engine.count(bodyTerm(e.getKey())));
      }
    }

    private static TermQuery bodyTerm(String word) {
      return new TermQuery(new Term("body", word));
    }

    /**
     * The sampled persist points of a recovery: each is crashed (one image, its surviving lines
     * drawn at random) and the image recovered and checked against the same model.
     */
    private final class RecoveryPoints implements CrashPointListener {
      private final Snapshot expected;
      private final Thread opener;
      private final String where;
      private final Random random;

      RecoveryPoints(Snapshot expected, Thread opener, String where, Random random) {
        this.expected = expected;
        this.opener = opener;
        this.where = where;
        this.random = random;
      }

      @Override
      public void atCrashPoint(CrashPoint point) throws IOException {
        if (failure != null) {
          return;
        }
        boolean replaying = onStack(engineFrames(opener), PartitionLifecycle.class, "replay");
        boolean inManifestWrite = onStack(engineFrames(Thread.currentThread()), Manifest.class, "write");
        if (random.nextDouble() >= plan.recoverySampling()
            && !(replaying && counts.get(Counter.RECOVERY_REPLAY_POINTS) == 0)
            && !(inManifestWrite && counts.get(Counter.RECOVERY_MANIFEST_POINTS) == 0)) {
          return;
        }
        counts.add(Counter.RECOVERY_POINTS, 1);
        if (replaying) {
          counts.add(Counter.RECOVERY_REPLAY_POINTS, 1);
        }
        if (inManifestWrite) {
          counts.add(Counter.RECOVERY_MANIFEST_POINTS, 1);
        }
        List<LongPredicate> survivors = CrashImagePool.survivorSets(point.dirtyLines().length, random);
        Path image = dir.resolve("recovery.pool");
        point.writeImage(image, survivors.get(random.nextInt(survivors.size())));
        recover(image, expected, where + ", then at recovery point " + point.index(), false);
      }
    }

    /** The second crash: the first sampled persist point of the writes after a recovery. */
    private static final class SecondCrash implements CrashPointListener {
      private final Path image;
      private final Random random;
      /** The model of the writes after the recovery (set before they start). */
      volatile Acknowledged model;
      /** What the image must hold, once taken. */
      volatile Snapshot expected;
      long index;

      SecondCrash(Path image, Random random) {
        this.image = image;
        this.random = random;
      }

      @Override
      public void atCrashPoint(CrashPoint point) throws IOException {
        if (expected == null && random.nextInt(8) == 0) {
          take(point);
        }
      }

      void take(CrashPoint point) throws IOException {
        List<LongPredicate> survivors = CrashImagePool.survivorSets(point.dirtyLines().length, random);
        point.writeImage(image, survivors.get(random.nextInt(survivors.size())));
        index = point.index();
        expected = model.snapshot();
      }
    }
  }

  /**
   * The frames of the engine code {@code thread} runs at the level being checked: on the thread in
   * a listener, those below the persist that called it; on another thread, those from its top; in
   * both cases down to this test's own frames (where an outer level's engine code may lie).
   */
  private static List<StackTraceElement> engineFrames(Thread thread) {
    StackTraceElement[] stack = thread.getStackTrace();
    int from = 0;
    if (thread == Thread.currentThread()) {
      while (from < stack.length
          && !(stack[from].getClassName().startsWith(SIMULATOR) && stack[from].getMethodName().equals("persist"))) {
        from++;
      }
      from++;
    }
    int to = Math.min(from, stack.length);
    while (to < stack.length && !stack[to].getClassName().startsWith(RtEngineConcurrentPowerFailureTest.class.getName())) {
      to++;
    }
    return Arrays.asList(stack).subList(Math.min(from, to), to);
  }

  /** Whether {@code frames} hold a method of {@code type} (named {@code method}, if given). */
  private static boolean onStack(List<StackTraceElement> frames, Class<?> type, String method) {
    for (StackTraceElement e : frames) {
      if (e.getClassName().equals(type.getName()) && (method == null || e.getMethodName().equals(method))) {
        return true;
      }
    }
    return false;
  }
}
