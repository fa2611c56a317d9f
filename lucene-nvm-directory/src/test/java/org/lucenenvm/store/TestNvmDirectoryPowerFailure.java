package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.Nightly;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.Bits;

/**
 * Power failures during Lucene commits into an {@link NvmDirectory}, simulated by {@link
 * PowerFailureSimulator}: at crash points of a seeded workload (adds, updates, deletes, commits,
 * merges, file deletions), every pool image a power failure could leave (see {@link CrashImages})
 * must open, pass CheckIndex and hold the last acknowledged commit (or the one in flight), with
 * exactly its documents; and so must every image of every crash point of the recovery of a
 * sample of those images.
 */
public class TestNvmDirectoryPowerFailure extends LuceneTestCase {
  private static final long POOL_SIZE = 8L * 1024 * 1024;

  /**
   * Every persist point of a short run, and every persist point of the recovery (reopening the
   * pool, IndexWriter deleting what the crash left) of a sample of its images.
   */
  public void testEveryPersistPointOfShortRun() throws Exception {
    CrashChecker checker = new CrashChecker(createTempDir("images"), 1.0, 0.05, 60);
    try {
      runWorkload(createTempDir("pool"), checker, 4, Integer.MAX_VALUE);
    } finally {
      checker.close();
    }
    assertTrue("too few crash points: " + checker.points, checker.points > 30);
    assertTrue("too few recovery crash points: " + checker.recoveryPoints, checker.recoveryPoints > 30);
    assertEquals("every crash point checked", checker.calls, checker.points);
  }

  /**
   * At least 1,000 sampled persist points of a longer run, and the persist points of the
   * recoveries of a sample of its images (minutes: nightly only).
   */
  @Nightly
  public void testThousandSampledPersistPointsOfLongRun() throws Exception {
    CrashChecker checker = new CrashChecker(createTempDir("images"), 0.25, 0.02, Integer.MAX_VALUE);
    try {
      runWorkload(createTempDir("pool"), checker, Integer.MAX_VALUE, 1000);
    } finally {
      checker.close();
    }
    assertTrue(checker.points >= 1000);
    assertTrue("too few recovery crash points: " + checker.recoveryPoints, checker.recoveryPoints >= 100);
  }

  /** The state the test expects a commit to hold: id → content version, and its op count. */
  private record Expected(long ops, Map<String, String> docs) {}

  /**
   * Runs {@code commits} commits of a seeded workload on a simulated pool in {@code dir} (fewer
   * if {@code checker} has checked {@code points} crash points by then), telling {@code checker}
   * which commit is acknowledged and which is in flight.
   */
  private void runWorkload(Path dir, CrashChecker checker, int commits, int points) throws IOException {
    Random random = new Random(random().nextLong());
    PowerFailureSimulator simulator = new PowerFailureSimulator(checker);
    Path poolFile = PoolPaths.poolIn(dir);
    Map<String, String> model = new TreeMap<>();
    long ops = 0;
    try (NvmHeap heap = NvmHeap.open(poolFile, POOL_SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
        NvmDirectory directory = new NvmDirectory(heap, new org.apache.lucene.store.SingleInstanceLockFactory())) {
      LogDocMergePolicy mergePolicy = new LogDocMergePolicy();
      mergePolicy.setMergeFactor(3);
      mergePolicy.setMinMergeDocs(1);
      IndexWriterConfig config =
          new IndexWriterConfig(new StandardAnalyzer())
              .setMergeScheduler(new SerialMergeScheduler())
              .setMergePolicy(mergePolicy)
              .setMaxBufferedDocs(8)
              .setUseCompoundFile(random.nextBoolean());
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int c = 0; c < commits && checker.points < points; c++) {
          int batch = 1 + random.nextInt(12);
          for (int i = 0; i < batch; i++) {
            String id = Integer.toString(random.nextInt(40));
            int action = random.nextInt(10);
            if (action < 2) {
              writer.deleteDocuments(new Term("id", id));
              model.remove(id);
            } else {
              String version = Long.toString(ops);
              writer.updateDocument(new Term("id", id), document(id, version, random));
              model.put(id, version);
            }
            ops++;
          }
          writer.setLiveCommitData(Map.of("ops", Long.toString(ops)).entrySet());
          checker.inFlight = new Expected(ops, new HashMap<>(model));
          writer.commit();
          checker.acknowledged = checker.inFlight;
        }
      }
      checker.atCrashPoint(simulator.crashPointNow());
      assertEquals(simulator.persistCount() + 1, checker.calls);
    }
    if (VERBOSE) {
      System.out.println(
          ops + " operations: " + checker.points + " of " + checker.calls + " crash points checked, "
              + checker.recoveryPoints + " recovery crash points");
    }
  }

  private static Document document(String id, String version, Random random) {
    Document doc = new Document();
    doc.add(new StringField("id", id, Field.Store.YES));
    doc.add(new StoredField("version", version));
    StringBuilder body = new StringBuilder();
    for (int w = 0, n = 5 + random.nextInt(30); w < n; w++) {
      body.append('w').append(random.nextInt(200)).append(' ');
    }
    doc.add(new TextField("body", body.toString(), Field.Store.NO));
    return doc;
  }

  /**
   * Checks the images of (a sample of) the crash points against the acknowledged commit, and
   * crashes the recovery of a sample of those images.
   */
  private final class CrashChecker implements PowerFailureSimulator.CrashPointListener, AutoCloseable {
    private final Path imageDir;
    private final double sampling;
    private final double recoverySampling;
    private final int recoveryBudget;
    private final Random random = new Random(random().nextLong());
    private final CrashImages images;
    private final CrashImages nested;
    volatile Expected acknowledged;
    volatile Expected inFlight;
    int calls;
    int points;
    int recoveryPoints;

    /**
     * Checks a fraction {@code sampling} of the crash points, and crashes the recovery of a
     * fraction {@code recoverySampling} of their images until the recoveries have had {@code
     * recoveryBudget} crash points.
     */
    CrashChecker(Path testDir, double sampling, double recoverySampling, int recoveryBudget) throws IOException {
      this.imageDir = PoolPaths.imageDir(testDir);
      this.sampling = sampling;
      this.recoverySampling = recoverySampling;
      this.recoveryBudget = recoveryBudget;
      this.images = new CrashImages(imageDir, "image", new Random(random.nextLong()));
      this.nested = new CrashImages(imageDir, "nested", new Random(random.nextLong()));
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      calls++;
      if (random.nextDouble() >= sampling) {
        return;
      }
      points++;
      images.checkEach(
          point,
          (image, where) -> {
            check(image, where);
            if (random.nextDouble() < recoverySampling && recoveryPoints < recoveryBudget) {
              recoveryPoints += images.crashRecovery(image, where, this::recover, nested, this::check);
            }
          });
    }

    /**
     * A restart: opens the pool (creating it if the crash left none) and an IndexWriter on the
     * index, which deletes the files of an unfinished commit, then closes both.
     */
    private void recover(Path pool, PoolBackend backend) throws IOException {
      try (NvmHeap heap = NvmHeap.open(pool, POOL_SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, backend);
          NvmDirectory directory = new NvmDirectory(heap, new org.apache.lucene.store.SingleInstanceLockFactory())) {
        if (DirectoryReader.indexExists(directory)) {
          IndexWriterConfig config =
              new IndexWriterConfig(new StandardAnalyzer())
                  .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
                  .setMergeScheduler(new SerialMergeScheduler());
          new IndexWriter(directory, config).close();
        }
      }
    }

    private void check(Path image, String where) throws IOException {
      Expected acked = acknowledged;
      try (NvmDirectory dir = NvmDirectory.open(image, 0)) {
        if (acked == null && !DirectoryReader.indexExists(dir)) {
          return;
        }
        TestUtil.checkIndex(dir);
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          long ops = Long.parseLong(reader.getIndexCommit().getUserData().getOrDefault("ops", "0"));
          Expected expected;
          if (acked != null && ops == acked.ops()) {
            expected = acked;
          } else if (inFlight != null && ops == inFlight.ops()) {
            expected = inFlight;
          } else {
            throw new AssertionError(
                where + ": the image holds the commit after " + ops + " operations; acknowledged: "
                    + (acked == null ? "none" : acked.ops()) + ", in flight: "
                    + (inFlight == null ? "none" : inFlight.ops()));
          }
          assertEquals(where + ", commit after " + ops + " ops", expected.docs(), documents(reader));
        }
      } catch (InvalidPoolException | IndexNotFoundException e) {
        if (acked != null) {
          throw new AssertionError(where + ": acknowledged commit after " + acked.ops() + " ops lost", e);
        }
      }
    }

    private Map<String, String> documents(DirectoryReader reader) throws IOException {
      Map<String, String> docs = new HashMap<>();
      for (LeafReaderContext leaf : reader.leaves()) {
        LeafReader r = leaf.reader();
        Bits live = r.getLiveDocs();
        StoredFields stored = r.storedFields();
        for (int d = 0; d < r.maxDoc(); d++) {
          if (live == null || live.get(d)) {
            Document doc = stored.document(d);
            assertNull("duplicate id " + doc.get("id"), docs.put(doc.get("id"), doc.get("version")));
          }
        }
      }
      return docs;
    }

    @Override
    public void close() throws IOException {
      PoolPaths.deleteImages(imageDir);
    }
  }
}
