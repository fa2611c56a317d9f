package org.lucenenvm.realtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * A small pool filled up through the engine (crash-consistent mode, as the server runs it): adds
 * and updates are refused with {@link FloodStageException} naming the pool and the numbers, while
 * searches, gets and deletes go on and the pipeline keeps working (merges that do not fit are
 * deferred, never fatal); deleting documents lets the merger reclaim their room, adds resume
 * without a restart, and every acknowledged document is there, before and after a reopen.
 */
public class FullPoolTest extends LuceneTestCase {
  private static final long POOL_BYTES = 16L << 20;
  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

  static RtEngineConfig config(double floodStage) {
    return RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
        .withCodec(TestUtil.getDefaultCodec())
        .withMode(DurabilityMode.CRASH_CONSISTENT)
        .withLogBytes(4L << 20)
        .withSegmentSize(100)
        .withDramBudgetBytes(1L << 20)
        .withMaxSegments(6)
        .withMergeFactor(3)
        .withFloodStage(floodStage);
  }

  /**
   * A few words to search and 8 KB of stored bytes that hardly compress, so the pool fills with
   * few documents.
   */
  static RtDocument doc(Random random, String id) {
    return new RtDocument(
        id,
        Map.of(
            "body", TestCorpus.text(random, 20),
            "url", TestUtil.randomSimpleString(random, 8000, 8000)));
  }

  /** The flood stage (95%) is reached before the pool is full; the rest is room for merges. */
  public void testFloodStageRefusesAddsUntilDeletesFreeRoom() throws Exception {
    fillDeleteAndResume(RtEngineConfig.DEFAULT_FLOOD_STAGE);
  }

  /**
   * Without a watermark below 100% the pool really fills: writes are refused only once a segment
   * waits for room, and merges that do not fit are deferred; the pipeline survives both.
   */
  public void testTrulyFullPoolDefersMergesAndWaitsInsteadOfFailing() throws Exception {
    RtEngineStats stats = fillDeleteAndResume(1.0);
    assertTrue("no merge was deferred: the pool never got that full", stats.mergesDeferred() > 0);
  }

  /**
   * Fills a {@link #POOL_BYTES} pool until adds are refused, checks what still works, deletes the
   * oldest 60% of the documents, waits until adds are taken again, adds more, and checks that
   * exactly the acknowledged, undeleted documents are there, also after a reopen. Returns the
   * engine's stats just before it closes.
   */
  private RtEngineStats fillDeleteAndResume(double floodStage) throws Exception {
    Random random = new Random(random().nextLong());
    Path dir = PoolPaths.imageDir(createTempDir("full-pool"));
    Path pool = dir.resolve("full.pool");
    RtEngineConfig config = config(floodStage);
    List<String> live = new ArrayList<>();
    RtEngineStats stats;
    try {
      try (NvmDirectory nvm = NvmDirectory.open(pool, POOL_BYTES);
          RtEngine engine = RtEngine.open(nvm, config)) {
        // Add until adds are refused and stay refused (a merge's output can take the pool above
        // the flood stage until its sources are freed).
        FloodStageException refused = null;
        String refusedId = null;
        for (int i = 0; refused == null || !refusedSteadily(engine); i++) {
          assertTrue("the pool never refused an add", i < 200_000);
          try {
            engine.add(doc(random, "d" + i));
            live.add("d" + i);
            refused = null;
          } catch (FloodStageException e) {
            refused = e;
            refusedId = "d" + i;
          }
        }
        String message = refused.getMessage();
        assertTrue(message, message.contains(pool.toString()));
        assertTrue(message, message.contains(String.format(Locale.ROOT, "of %,d bytes used", POOL_BYTES)));
        assertTrue(message, message.contains("adds and updates are refused"));
        NvmUsage usage = refused.usage();
        assertTrue(usage.refusesWrites());
        assertEquals(POOL_BYTES, usage.totalBytes());
        assertEquals(floodStage, usage.floodStage(), 0);
        if (floodStage < 1) {
          assertTrue(message, usage.floodStageReached());
          assertTrue(usage.usedBytes() >= floodStage * POOL_BYTES);
        } else {
          assertTrue(message, usage.waitingFor().contains("has no room for segment"));
        }

        // Nothing refused was applied; updates are refused too.
        String again = refusedId;
        assertNull(engine.get(again));
        expectThrows(FloodStageException.class, () -> engine.add(doc(random, again)));
        expectThrows(FloodStageException.class, () -> engine.update(doc(random, live.getFirst())));
        // Searches, gets and deletes go on.
        assertEquals(live.size(), engine.count(MatchAllDocsQuery.INSTANCE));
        assertNotNull(engine.get(live.getFirst()));
        assertNotNull(engine.get(live.getLast()));
        int deleted = live.size() * 6 / 10;
        for (String id : live.subList(0, deleted)) {
          assertTrue(id, engine.delete(id));
        }
        live.subList(0, deleted).clear();
        assertEquals(live.size(), engine.count(MatchAllDocsQuery.INSTANCE));

        // The merger reclaims the deleted documents' room; adds resume without a restart.
        awaitWritable(engine);
        for (int i = 0; i < 200; i++) {
          String id = "e" + i;
          addWhenWritable(engine, doc(random, id));
          live.add(id);
        }
        assertEquals(live.size(), engine.count(MatchAllDocsQuery.INSTANCE));
        for (String id : live) {
          assertNotNull(id, engine.get(id));
        }
        stats = engine.stats();
      }
      try (NvmDirectory nvm = NvmDirectory.open(pool, 0);
          RtEngine reopened = RtEngine.open(nvm, config)) {
        assertEquals(live.size(), reopened.count(MatchAllDocsQuery.INSTANCE));
        for (String id : live) {
          assertNotNull(id, reopened.get(id));
        }
        assertNull(reopened.get("d0"));
      }
    } finally {
      PoolPaths.deleteImages(dir);
    }
    return stats;
  }

  /** Whether the engine refuses writes for the next half second. */
  static boolean refusedSteadily(RtEngine engine) throws InterruptedException {
    for (int i = 0; i < 5; i++) {
      if (!engine.poolUsage().refusesWrites()) {
        return false;
      }
      Thread.sleep(100);
    }
    return true;
  }

  static void awaitWritable(RtEngine engine) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    while (engine.poolUsage().refusesWrites()) {
      assertTrue(
          "writes still refused: " + engine.poolUsage(), System.nanoTime() < deadline);
      Thread.sleep(10);
    }
  }

  /**
   * Adds {@code doc}, waiting while the pool refuses writes: near the flood stage a merge's output
   * can take the pool above it until the merge's sources are freed.
   */
  private static void addWhenWritable(RtEngine engine, RtDocument doc) throws InterruptedException {
    while (true) {
      try {
        engine.add(doc);
        return;
      } catch (FloodStageException e) {
        awaitWritable(engine);
      }
    }
  }
}
