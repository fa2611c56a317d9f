package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongPredicate;
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
 * merges, file deletions), every pool image a power failure could leave must open, pass
 * CheckIndex and hold the last acknowledged commit (or the one in flight), with exactly its
 * documents.
 */
public class TestNvmDirectoryPowerFailure extends LuceneTestCase {
  private static final long POOL_SIZE = 8L * 1024 * 1024;

  /** Every persist point of a short run; images: none, all and two random subsets of dirty lines. */
  public void testEveryPersistPointOfShortRun() throws Exception {
    Path images = PoolPaths.imageDir(createTempDir("images"));
    CrashChecker checker = new CrashChecker(images, 1, 1.0);
    try {
      runWorkload(createTempDir("pool"), checker, 4, Integer.MAX_VALUE);
    } finally {
      PoolPaths.deleteImages(images);
    }
    assertTrue("too few crash points: " + checker.points, checker.points > 30);
    assertEquals("every crash point checked", checker.calls, checker.points);
  }

  /** At least 1,000 sampled persist points of a longer run (minutes: nightly only). */
  @Nightly
  public void testThousandSampledPersistPointsOfLongRun() throws Exception {
    Path images = PoolPaths.imageDir(createTempDir("images"));
    CrashChecker checker = new CrashChecker(images, 1, 0.25);
    try {
      runWorkload(createTempDir("pool"), checker, Integer.MAX_VALUE, 1000);
    } finally {
      PoolPaths.deleteImages(images);
    }
    assertTrue(checker.points >= 1000);
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

  /** Checks the images of (a sample of) the crash points against the acknowledged commit. */
  private final class CrashChecker implements PowerFailureSimulator.CrashPointListener {
    private final Path imageDir;
    private final int randomImages;
    private final double sampling;
    private final Random random = new Random(random().nextLong());
    volatile Expected acknowledged;
    volatile Expected inFlight;
    int calls;
    int points;
    private int checked;

    CrashChecker(Path imageDir, int randomImages, double sampling) {
      this.imageDir = imageDir;
      this.randomImages = randomImages;
      this.sampling = sampling;
    }

    @Override
    public void atCrashPoint(PowerFailureSimulator.CrashPoint point) throws IOException {
      calls++;
      if (random.nextDouble() >= sampling) {
        return;
      }
      points++;
      check(point, "none", PowerFailureSimulator.noDirtyLines());
      if (point.dirtyLines().length > 0) {
        check(point, "all", PowerFailureSimulator.allDirtyLines());
      }
      if (point.dirtyLines().length > 1) {
        for (int i = 0; i < randomImages; i++) {
          check(point, "random" + i, PowerFailureSimulator.randomDirtyLines(new Random(random.nextLong())));
        }
      }
    }

    private void check(PowerFailureSimulator.CrashPoint point, String kind, LongPredicate survives)
        throws IOException {
      Path image = imageDir.resolve("image" + (checked++ % 2) + ".pool");
      point.writeImage(image, survives);
      String where =
          "crash point " + point.index() + " (" + kind + " of " + point.dirtyLines().length + " dirty lines)";
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
  }
}
