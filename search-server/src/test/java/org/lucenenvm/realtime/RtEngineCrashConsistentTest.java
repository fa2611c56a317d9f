package org.lucenenvm.realtime;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.realtime.CrashConsistentEngine.Acknowledged;
import org.lucenenvm.realtime.CrashConsistentEngine.Snapshot;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.NvmRegion;
import org.lucenenvm.store.PoolPaths;
import org.lucenenvm.store.PowerFailureSimulator;

/**
 * {@link DurabilityMode#CRASH_CONSISTENT}: crashes (pool images taken while the engine runs, as a
 * {@code kill -9} or a power failure leaves them) lose no acknowledged operation; recovery drops
 * unlisted segments, refuses damaged logs naming where, and a full log fails clearly.
 */
public class RtEngineCrashConsistentTest extends LuceneTestCase {
  public void testEveryAcknowledgedOperationSurvivesCrashes() throws Exception {
    survivesCrashes(CrashConsistentEngine.config());
  }

  /**
   * Every merge keeps its sources' deleted documents masked: a merged segment's deletions (those
   * it carried and later ones) are recovered from the manifest, and no deleted document returns.
   */
  public void testMergedSegmentsKeepingDeletionsSurviveCrashes() throws Exception {
    int recovered =
        survivesCrashes(
            CrashConsistentEngine.config()
                .withCodec(new NvmCodec()) // linked merges: the ones that keep deletions
                .withLinkedMerges(true)
                .withMergeDeletesPctAllowed(100));
    assertTrue("no recovered merged segment held deletions", recovered > 0);
  }

  /**
   * Crashes an engine running random operations with {@code config} at the end of each of four
   * rounds and checks that recovery holds the acknowledged operations; returns how many merged
   * segments with deletions the recoveries restored.
   */
  private int survivesCrashes(RtEngineConfig config) throws Exception {
    Random r = new Random(random().nextLong());
    Acknowledged acked = new Acknowledged();
    int mergedWithDeletions = 0;
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      long replayed = 0;
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int round = 0; round < 4; round++) {
          for (int i = 0; i < 150; i++) {
            acked.run(engine, CrashConsistentEngine.randomOp(r, acked.state(), round * 1000 + i));
          }
          Snapshot expected = acked.snapshot();
          for (boolean keep : new boolean[] {false, true}) {
            Path image = pool.crash(keep);
            try (NvmDirectory recovered = CrashImagePool.openImage(image);
                RtEngine reopened = RtEngine.open(recovered, config)) {
              expected.assertHeldBy(reopened, "round " + round + ", unpersisted kept: " + keep);
              RtRecovery report = reopened.recoveries().get(0);
              assertEquals(report.toString(), "LOGGED", report.manifest());
              replayed += report.operationsReplayed();
              mergedWithDeletions += KeptDeletionsDifferentialTest.mergedWithDeletions(reopened);
            }
          }
        }
        assertTrue(engine.stats().toString(), engine.segments().size() > 1);
        assertTrue("no crash image had operations to replay", replayed > 0);
      }
      // A close leaves the live segment's operations in the log; the next open replays them.
      try (RtEngine reopened = RtEngine.open(pool.nvm, config)) {
        acked.snapshot().assertHeldBy(reopened, "after close");
        for (int i = 0; i < 100; i++) {
          acked.run(reopened, CrashConsistentEngine.randomOp(r, acked.state(), 10_000 + i));
        }
      }
      try (RtEngine reopened = RtEngine.open(pool.nvm, config)) {
        acked.snapshot().assertHeldBy(reopened, "after a second close");
      }
      IllegalStateException refused =
          expectThrows(
              IllegalStateException.class,
              () -> RtEngine.open(pool.nvm, config.withMode(DurabilityMode.GRACEFUL)));
      assertTrue(refused.getMessage(), refused.getMessage().contains("open it in CRASH_CONSISTENT mode"));
    }
    return mergedWithDeletions;
  }

  /**
   * Live segments frozen by writers on several threads reach the indexer, and so are engraved and
   * recorded, in freezing order. A checkpoint takes the largest operation of the engraved segments
   * as durable and reclaims the log up to it: a segment engraved before one frozen earlier makes
   * the manifest claim the earlier one's operations, whose records it then reclaims, so a crash
   * before that segment is engraved loses them (the concurrent power-failure run lost acknowledged
   * documents so). One-document segments, a one-segment queue and six writers keep hand-overs
   * racing under backpressure; at every persist of the indexer the table is checked.
   */
  public void testConcurrentWritersHandOverSegmentsInFreezingOrder() throws Exception {
    AtomicReference<RtEngine> running = new AtomicReference<>();
    AtomicReference<String> outOfOrder = new AtomicReference<>();
    PowerFailureSimulator simulator =
        new PowerFailureSimulator(
            point -> {
              RtEngine engine = running.get();
              if (engine != null && Thread.currentThread().getName().endsWith("-indexer")) {
                outOfOrder.compareAndSet(null, engravedOutOfOrder(engine.segments()));
              }
            });
    Path dir = PoolPaths.imageDir(createTempDir("order"));
    RtEngineConfig config =
        CrashConsistentEngine.config().withSegmentSize(1).withQueueCapacity(1).withMaxSegments(1000);
    try (NvmHeap heap = NvmHeap.open(dir.resolve("index.pool"), 32L << 20, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
        NvmDirectory nvm = new NvmDirectory(heap, new SingleInstanceLockFactory());
        RtEngine engine = RtEngine.open(nvm, config)) {
      running.set(engine);
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        String prefix = "w" + w + "-";
        writers.add(
            new Thread(
                () -> {
                  for (int i = 0; i < 25 && outOfOrder.get() == null; i++) {
                    engine.add(new RtDocument(prefix + i, Map.of("body", "doc " + i)));
                  }
                }));
      }
      writers.forEach(Thread::start);
      for (Thread writer : writers) {
        writer.join();
      }
      running.set(null);
    } finally {
      PoolPaths.deleteImages(dir);
    }
    assertNull(outOfOrder.get(), outOfOrder.get());
  }

  /**
   * A description of a flushed segment (level 0) engraved while one frozen before it (a lower id)
   * is not, or null.
   */
  private static String engravedOutOfOrder(List<RtSegmentInfo> segments) {
    RtSegmentInfo lastEngraved = null;
    for (RtSegmentInfo s : segments) {
      if (s.level() == 0 && s.nvmBytes() > 0 && (lastEngraved == null || s.id() > lastEngraved.id())) {
        lastEngraved = s;
      }
    }
    for (RtSegmentInfo s : segments) {
      if (lastEngraved != null && s.level() == 0 && s.nvmBytes() == 0 && s.id() < lastEngraved.id()) {
        return "segment " + lastEngraved.id() + " is engraved while segment " + s.id()
            + ", frozen before it, is not (" + s.state() + "): " + segments;
      }
    }
    return null;
  }

  public void testUnstoredFieldsAreSearchableAfterReplay() throws Exception {
    RtSchema schema = RtSchema.builder().text("title").text("body", false).build();
    RtEngineConfig config =
        RtEngineConfig.defaults(schema)
            .withCodec(org.apache.lucene.tests.util.TestUtil.getDefaultCodec())
            .withMode(DurabilityMode.CRASH_CONSISTENT)
            .withSegmentSize(1_000)
            .withLogBytes(RtEngineConfig.MIN_LOG_BYTES);
    TermQuery unstored = new TermQuery(new Term("body", "secret"));
    try (CrashImagePool pool = new CrashImagePool(createTempDir("unstored"))) {
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int i = 0; i < 30; i++) { // all in the live segment: only the log holds them
          engine.add(new RtDocument("d" + i, Map.of("title", "t" + i, "body", "secret b" + i)));
        }
        assertEquals(30, count(engine, unstored));
        Path image = pool.crash(false);
        try (NvmDirectory recovered = CrashImagePool.openImage(image);
            RtEngine reopened = RtEngine.open(recovered, config)) {
          assertEquals(30, reopened.recoveries().get(0).operationsReplayed());
          assertEquals("unstored field after a crash", 30, count(reopened, unstored));
          assertEquals(Map.of("title", "t7"), reopened.get("d7").fields());
        }
      }
      try (RtEngine reopened = RtEngine.open(pool.nvm, config)) {
        assertEquals(30, reopened.recoveries().get(0).operationsReplayed());
        assertEquals("unstored field after a close", 30, count(reopened, unstored));
        assertEquals(Map.of("title", "t7"), reopened.get("d7").fields());
      }
    }
  }

  private static int count(RtEngine engine, TermQuery q) throws IOException {
    try (RtSnapshot s = engine.acquireSnapshot()) {
      return s.searcher().count(q);
    }
  }

  /** A long id, so that a few thousand deletes take the log several times over. */
  private static String id(int i) {
    return String.format(java.util.Locale.ROOT, "document-deleted-by-a-stream-of-deletes-%05d", i);
  }

  public void testDeletesAloneReclaimLogSpaceAndSurviveCrashes() throws Exception {
    int docs = 2_500;
    List<String> deleted = new java.util.ArrayList<>();
    for (int i = 0; i < docs; i++) {
      if (i % 25 != 0) {
        deleted.add(id(i));
      }
    }
    java.util.Collections.shuffle(deleted, new Random(random().nextLong()));
    long deleteBytes = 0;
    for (String id : deleted) {
      deleteBytes += IngestLogFormat.recordSpace(id.length(), 0);
    }
    assertTrue("the deletes must take the log several times over", deleteBytes > 3 * RtEngineConfig.MIN_LOG_BYTES);
    // A log that stayed full would fail a delete after 10 s instead of the default 30 s.
    RtEngineConfig config = CrashConsistentEngine.config().withLogFullTimeout(Duration.ofSeconds(10));
    Map<String, String> state = new java.util.HashMap<>();
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      List<Path> images = new java.util.ArrayList<>();
      List<Map<String, String>> expected = new java.util.ArrayList<>();
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int i = 0; i < docs; i++) {
          engine.add(new RtDocument(id(i), Map.of("body", "b" + i)));
          state.put(id(i), "b" + i);
        }
        for (int n = 0; n < deleted.size(); n++) {
          assertTrue(deleted.get(n), engine.delete(deleted.get(n)));
          state.remove(deleted.get(n));
          if (n == deleted.size() / 2 || n == deleted.size() - 1) {
            for (boolean keep : new boolean[] {false, true}) {
              images.add(pool.crash(keep));
              expected.add(new java.util.HashMap<>(state));
            }
          }
        }
        assertEquals(docs / 25, engine.stats().liveDocs());
      }
      for (int i = 0; i < images.size(); i++) {
        try (NvmDirectory recovered = CrashImagePool.openImage(images.get(i));
            RtEngine reopened = RtEngine.open(recovered, config)) {
          assertEquals("image " + i, expected.get(i), CrashConsistentEngine.contents(reopened));
        }
      }
    }
  }

  public void testRecoveryDropsSegmentsTheManifestDoesNotList() throws Exception {
    Random r = new Random(random().nextLong());
    Acknowledged acked = new Acknowledged();
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      RtEngineConfig config = CrashConsistentEngine.config();
      Path image;
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int i = 0; i < 200; i++) {
          acked.run(engine, CrashConsistentEngine.randomOp(r, acked.state(), i));
        }
        image = pool.crash(true);
      }
      try (NvmDirectory recovered = CrashImagePool.openImage(image)) {
        // What an engrave interrupted by the crash leaves: files of a segment nobody listed.
        try (IndexOutput out = recovered.createOutput(Tiers.namespace(9_999) + "_0.si", IOContext.DEFAULT)) {
          out.writeString("half an engrave");
        }
        recovered.sync(List.of(Tiers.namespace(9_999) + "_0.si"));
        recovered.syncMetaData();
        try (RtEngine reopened = RtEngine.open(recovered, config)) {
          acked.snapshot().assertHeldBy(reopened, "after dropping");
          // the planted one, and any engrave or merge the crash interrupted
          RtRecovery report = reopened.recoveries().get(0);
          assertTrue(report.toString(), report.segmentsDropped() >= 1);
        }
        for (String file : recovered.listAll()) {
          assertFalse(file, file.startsWith(Tiers.namespace(9_999)));
        }
      }
    }
  }

  public void testDamagedLogRecordIsRefusedNamingPoolOffsetAndRecord() throws Exception {
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      RtEngineConfig config = CrashConsistentEngine.config().withSegmentSize(1000);
      Path image;
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int i = 0; i < 5; i++) {
          engine.add(new RtDocument("doc" + i, Map.of("body", "text " + i)));
        }
        image = pool.crash(false);
      }
      try (NvmDirectory recovered = CrashImagePool.openImage(image)) {
        long flipAt;
        try (NvmRegion region = recovered.openRegion(PartitionLifecycle.LOG_NAME)) {
          MemorySegment file = region.segment();
          IngestLogFormat.Head head = IngestLogFormat.readSlot(file, IngestLogFormat.SLOT_0);
          // inside the id of the first record (no truncation happened: one live segment)
          flipAt = region.poolOffset() + IngestLogFormat.HEADER_SIZE + head.position() + IngestLogFormat.RECORD_HEADER + 1;
        }
        recovered.close();
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          ByteBuffer b = ByteBuffer.allocate(1);
          ch.read(b, flipAt);
          b.put(0, (byte) (b.get(0) ^ 0x20)).rewind();
          ch.write(b, flipAt);
        }
      }
      try (NvmDirectory damaged = CrashImagePool.openImage(image)) {
        CorruptIngestLogException e =
            expectThrows(CorruptIngestLogException.class, () -> RtEngine.open(damaged, config));
        String m = e.getMessage();
        assertTrue(m, m.contains(image.toString()));
        assertTrue(m, m.contains("pool offset"));
        assertTrue(m, m.contains("record 1 "));
      }
    }
  }

  public void testRecordLargerThanTheLogIsRefusedAndLosesNothing() throws Exception {
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      RtEngineConfig config = CrashConsistentEngine.config().withLogFullTimeout(Duration.ofMillis(100));
      Path image;
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        engine.add(new RtDocument("small", Map.of("body", "kept")));
        String huge = "word ".repeat((int) (RtEngineConfig.MIN_LOG_BYTES / 4));
        IllegalArgumentException e =
            expectThrows(
                IllegalArgumentException.class,
                () -> engine.add(new RtDocument("huge", Map.of("body", huge))));
        assertTrue(e.getMessage(), e.getMessage().contains("exceeds the capacity of ingest log"));
        assertTrue(e.getMessage(), e.getMessage().contains("logBytes"));
        assertTrue(e.getMessage(), e.getMessage().contains("--log-size"));
        assertNull(engine.get("huge"));
        engine.add(new RtDocument("after", Map.of("body", "kept too")));
        image = pool.crash(false);
      }
      try (NvmDirectory recovered = CrashImagePool.openImage(image);
          RtEngine reopened = RtEngine.open(recovered, config)) {
        assertEquals(Map.of("small", "kept", "after", "kept too"), CrashConsistentEngine.contents(reopened));
      }
    }
  }

  public void testRefusesWhatCannotBeCrashConsistent() throws Exception {
    IllegalArgumentException lazy =
        expectThrows(
            IllegalArgumentException.class,
            () -> CrashConsistentEngine.config().withPolicy(PipelinePolicy.LAZY_ENGRAVE_LAZY_POINTER));
    assertTrue(lazy.getMessage(), lazy.getMessage().contains("eager-engrave"));
    try (Directory dir = new ByteBuffersDirectory()) {
      IllegalArgumentException notNvm =
          expectThrows(IllegalArgumentException.class, () -> RtEngine.open(dir, CrashConsistentEngine.config()));
      assertTrue(notNvm.getMessage(), notNvm.getMessage().contains("needs an NvmDirectory"));
    }
  }

  public void testPartitionsEachReplayTheirOwnLog() throws Exception {
    Random r = new Random(random().nextLong());
    Acknowledged acked = new Acknowledged();
    try (CrashImagePool pool = new CrashImagePool(createTempDir("cc"))) {
      RtEngineConfig config = CrashConsistentEngine.config().withPartitions(2);
      Path image;
      try (RtEngine engine = RtEngine.open(pool.nvm, config)) {
        for (int i = 0; i < 300; i++) {
          acked.run(engine, CrashConsistentEngine.randomOp(r, acked.state(), i));
        }
        image = pool.crash(true);
      }
      try (NvmDirectory recovered = CrashImagePool.openImage(image);
          RtEngine reopened = RtEngine.open(recovered, config)) {
        acked.snapshot().assertHeldBy(reopened, "two partitions");
        assertEquals(2, reopened.recoveries().size());
      }
    }
  }

  public void testGracefulCrashNamesTheCallThatAcceptsTheLoss() throws Exception {
    try (CrashImagePool pool = new CrashImagePool(createTempDir("graceful"))) {
      RtEngineConfig graceful = CrashConsistentEngine.config().withMode(DurabilityMode.GRACEFUL);
      Path image;
      try (RtEngine engine = RtEngine.open(pool.nvm, graceful)) {
        for (int i = 0; i < 100; i++) {
          engine.add(new RtDocument("doc" + i, Map.of("body", "text " + i)));
        }
        image = pool.crash(true);
      }
      try (NvmDirectory crashed = CrashImagePool.openImage(image)) {
        IllegalStateException refused =
            expectThrows(IllegalStateException.class, () -> RtEngine.open(crashed, graceful));
        assertTrue(refused.getMessage(), refused.getMessage().contains("RtEngine.discardUnverifiable"));
        assertTrue(refused.getMessage(), refused.getMessage().contains("--discard-unverifiable"));
        assertEquals(1, RtEngine.discardUnverifiable(crashed));
        try (RtEngine reopened = RtEngine.open(crashed, graceful)) {
          assertEquals(0, reopened.stats().liveDocs());
        }
        assertEquals("nothing left to discard", 0, RtEngine.discardUnverifiable(crashed));
      }
    }
  }
}
