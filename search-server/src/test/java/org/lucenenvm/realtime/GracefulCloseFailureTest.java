package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * A graceful close that cannot persist everything (NVM budget or NVM pool full) deletes nothing
 * persisted, says how many acknowledged documents are missing, keeps the engine readable and
 * retryable, and the next open refuses the index instead of serving fewer documents. A volatile
 * engine refuses a graceful engine's directory.
 */
public class GracefulCloseFailureTest extends LuceneTestCase {
  private static final long SMALL_BUDGET = 60_000;

  private static RtEngineConfig config() {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withCodec(TestUtil.getDefaultCodec())
        .withSegmentSize(100)
        .withDramBudgetBytes(60_000)
        .withMergeFactor(3)
        .withMode(DurabilityMode.GRACEFUL);
  }

  /**
   * Adds documents until the engine refuses with NvmFullException (a {@link FloodStageException}:
   * the pool or budget has no room for the next segment); returns the acknowledged.
   */
  private static int fillUntilFull(RtEngine engine) {
    return fillUntilFull((Consumer<RtDocument>) engine::add);
  }

  private static int fillUntilFull(Consumer<RtDocument> engine) {
    for (int i = 0; i < 200_000; i++) {
      try {
        engine.accept(
            new RtDocument("d" + i, Map.of("body", "common " + TestCorpus.text(random(), 20))));
      } catch (NvmFullException e) {
        return i;
      }
    }
    throw new AssertionError("NVM never filled up");
  }

  private static List<String> segmentFiles(Directory dir) throws IOException {
    List<String> names = new ArrayList<>();
    for (String name : dir.listAll()) {
      if (name.startsWith("seg")) {
        names.add(name);
      }
    }
    return names;
  }

  private static void assertAllFound(RtEngine engine, int docs) throws IOException {
    assertEquals(docs, engine.count(MatchAllDocsQuery.INSTANCE));
    for (int i = 0; i < docs; i++) {
      assertNotNull("d" + i, engine.get("d" + i));
    }
  }

  public void testFailedCloseKeepsEverythingAndRetrySucceedsAfterBudgetIsRaised()
      throws Exception {
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine engine = RtEngine.open(nvm, config().withNvmBudgetBytes(SMALL_BUDGET));
      int acknowledged = fillUntilFull(engine);
      List<String> engraved = segmentFiles(nvm);
      assertFalse(engraved.isEmpty());

      IOException failed = expectThrows(IOException.class, engine::close);
      assertTrue(failed.getMessage(), failed.getMessage().contains("are not persisted"));
      assertTrue(failed.getMessage(), failed.getMessage().contains("INCOMPLETE"));
      assertTrue(segmentFiles(nvm).containsAll(engraved));
      assertAllFound(engine, acknowledged);
      IllegalStateException refusedWrite =
          expectThrows(IllegalStateException.class, () -> engine.add(new RtDocument("x", Map.of())));
      assertTrue(refusedWrite.getMessage(), refusedWrite.getMessage().contains("closed"));

      LockObtainFailedException inUse =
          expectThrows(LockObtainFailedException.class, () -> RtEngine.open(nvm, config()));
      assertTrue(inUse.getMessage(), inUse.getMessage().contains("in use by another open engine"));
      expectThrows(IOException.class, engine::close);

      engine.setNvmBudgetBytes(Long.MAX_VALUE);
      engine.close();
      engine.close();
      expectThrows(IllegalStateException.class, engine::acquireSnapshot);
      try (RtEngine reopened = RtEngine.open(nvm, config())) {
        assertAllFound(reopened, acknowledged);
      }
    }
  }

  public void testGivingUpAfterFailedCloseIsRefusedUntilTheLossIsAccepted() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine engine = RtEngine.open(nvm, config().withNvmBudgetBytes(SMALL_BUDGET));
      int acknowledged = fillUntilFull(engine);
      expectThrows(IOException.class, engine::close);
      try (Directory restarted = new ByteBuffersDirectory()) { // what the next process finds
        for (String name : nvm.listAll()) {
          restarted.copyFrom(nvm, name, name, IOContext.DEFAULT);
        }
        assertRefusedThenAccepted(restarted, acknowledged);
      }
    }
  }

  public void testFullPoolDuringGracefulCloseIsRefusedUntilTheLossIsAccepted() throws Exception {
    Path pool = PoolPaths.poolIn(createTempDir("pool"));
    int acknowledged;
    try (NvmDirectory nvm = NvmDirectory.open(pool, 8L << 20)) {
      // No merges: their allocation churn fragments the small pool until it cannot even record a
      // deletion (its file table needs one contiguous extent), which is not what this tests. No
      // flood stage below 100% either: writes are refused only once a segment does not fit, so
      // the close finds segments it cannot persist.
      RtEngine engine =
          RtEngine.open(nvm, config().withMaxSegments(1_000_000).withFloodStage(1.0));
      acknowledged = fillUntilFull(engine);
      IOException failed = expectThrows(IOException.class, engine::close);
      assertTrue(failed.getMessage(), failed.getMessage().contains("are not persisted"));
      assertAllFound(engine, acknowledged);
    }
    Path larger = PoolPaths.poolIn(createTempDir("larger"));
    try (NvmDirectory full = NvmDirectory.open(pool, 8L << 20);
        NvmDirectory copy = NvmDirectory.open(larger, 32L << 20)) {
      assertFalse(segmentFiles(full).isEmpty());
      assertRefused(full);
      for (String name : full.listAll()) { // the operator moves the index to a larger pool
        copy.copyFrom(full, name, name, IOContext.DEFAULT);
      }
      copy.sync(List.of(copy.listAll()));
      assertRefusedThenAccepted(copy, acknowledged);
    }
  }

  /** The graceful and volatile opens refuse the incomplete index and keep its files. */
  private static String assertRefused(Directory nvm) throws IOException {
    List<String> files = segmentFiles(nvm);
    IllegalStateException refused =
        expectThrows(IllegalStateException.class, () -> RtEngine.open(nvm, config()));
    assertTrue(refused.getMessage(), refused.getMessage().contains("could not persist"));
    IllegalStateException volatileRefused =
        expectThrows(
            IllegalStateException.class,
            () -> RtEngine.open(nvm, config().withMode(DurabilityMode.VOLATILE)));
    assertTrue(volatileRefused.getMessage(), volatileRefused.getMessage().contains("GRACEFUL"));
    assertEquals(files, segmentFiles(nvm));
    return refused.getMessage();
  }

  /**
   * The index is refused; once the loss is accepted, the persisted documents are served and the
   * missing ones are those counted.
   */
  private static void assertRefusedThenAccepted(Directory nvm, int acknowledged)
      throws IOException {
    String refused = assertRefused(nvm);
    long givenUp = RtEngine.acceptIncomplete(nvm);
    assertTrue(givenUp > 0);
    assertTrue(refused, refused.contains("persist " + givenUp + " acknowledged"));
    try (RtEngine opened = RtEngine.open(nvm, config())) {
      int served = opened.count(MatchAllDocsQuery.INSTANCE);
      assertEquals(acknowledged - givenUp, served);
      assertTrue(served > 0);
    }
  }

  public void testVolatileEngineRefusesGracefulDirectory() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine running = RtEngine.open(nvm, config());
      for (int i = 0; i < 250; i++) {
        running.add(new RtDocument("d" + i, Map.of("body", "common " + i)));
      }
      RtEngineConfig volatileConfig = config().withMode(DurabilityMode.VOLATILE);
      LockObtainFailedException locked =
          expectThrows(LockObtainFailedException.class, () -> RtEngine.open(nvm, volatileConfig));
      assertTrue(locked.getMessage(), locked.getMessage().contains("in use by another open engine"));
      try (Directory crashImage = new ByteBuffersDirectory()) {
        crashImage.copyFrom(nvm, Manifest.FILE_NAME, Manifest.FILE_NAME, IOContext.DEFAULT);
        IllegalStateException inUse =
            expectThrows(
                IllegalStateException.class, () -> RtEngine.open(crashImage, volatileConfig));
        assertTrue(inUse.getMessage(), inUse.getMessage().contains("IN_USE"));
        IllegalStateException crashed =
            expectThrows(IllegalStateException.class, () -> RtEngine.open(crashImage, config()));
        assertTrue(
            crashed.getMessage(), crashed.getMessage().contains("did not shut down gracefully"));
      }
      running.close();
      List<String> files = segmentFiles(nvm);
      assertFalse(files.isEmpty());
      IllegalStateException clean =
          expectThrows(IllegalStateException.class, () -> RtEngine.open(nvm, volatileConfig));
      assertTrue(clean.getMessage(), clean.getMessage().contains("GRACEFUL"));
      assertEquals(files, segmentFiles(nvm));
      try (RtEngine reopened = RtEngine.open(nvm, config())) {
        assertAllFound(reopened, 250);
      }
    }
  }

  public void testPartitionedEngineRefusesThenAcceptsOrRetries() throws Exception {
    RtEngineConfig config = config().withNvmBudgetBytes(SMALL_BUDGET);
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine engines = RtEngine.open(nvm, config.withPartitions(2));
      int acknowledged = fillUntilFull(engines::add);
      IOException failed = expectThrows(IOException.class, engines::close);
      assertTrue(failed.getMessage(), failed.getMessage().contains("are not persisted"));
      assertEquals(acknowledged, engines.count(MatchAllDocsQuery.INSTANCE));

      try (Directory restarted = new ByteBuffersDirectory()) { // gives up: what a restart finds
        for (String name : nvm.listAll()) {
          restarted.copyFrom(nvm, name, name, IOContext.DEFAULT);
        }
        IllegalStateException refused =
            expectThrows(
                IllegalStateException.class,
                () -> RtEngine.open(restarted, config().withPartitions(2)));
        assertTrue(refused.getMessage(), refused.getMessage().contains("could not persist"));
        long givenUp = RtEngine.acceptIncomplete(restarted);
        assertTrue(givenUp > 0);
        try (RtEngine opened = RtEngine.open(restarted, config().withPartitions(2))) {
          assertEquals(acknowledged - givenUp, opened.count(MatchAllDocsQuery.INSTANCE));
        }
      }

      engines.setNvmBudgetBytes(Long.MAX_VALUE); // or retries after making room
      engines.close();
      try (RtEngine reopened = RtEngine.open(nvm, config().withPartitions(2))) {
        assertEquals(acknowledged, reopened.count(MatchAllDocsQuery.INSTANCE));
        for (int i = 0; i < acknowledged; i++) {
          assertNotNull("d" + i, reopened.get("d" + i));
        }
      }
    }
  }
}
