package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolPaths;

/**
 * A merge under way when the pipeline stops is aborted: its output checks the stop condition as
 * it is written, the partial segment is deleted and its NVM reservation returned, the table keeps
 * the sources, and no stage failure is recorded; a graceful close that lands inside a merge
 * reopens with every document and with the NVM result cache warm over the unmerged sources.
 */
public class MergeAbortTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtSchema.builder().text("body").build();
  private static final int DOCS = 50;

  public void testOutputStopsWithinTheCheckInterval() throws IOException {
    AtomicBoolean stop = new AtomicBoolean();
    try (Directory dir = new ByteBuffersDirectory()) {
      Directory abortable = new AbortableMergeDirectory(dir, stop::get);
      byte[] chunk = new byte[1 + random().nextInt(4096)];
      try (IndexOutput out = abortable.createOutput("f", IOContext.DEFAULT)) {
        while (out.getFilePointer() < 3 * AbortableMergeDirectory.CHECK_BYTES) {
          out.writeBytes(chunk, chunk.length); // nothing stops an output while stop is false
        }
        stop.set(true);
        long stoppedAt = out.getFilePointer();
        expectThrows(
            MergePolicy.MergeAbortedException.class,
            () -> {
              while (true) {
                switch (random().nextInt(5)) {
                  case 0 -> out.writeByte((byte) 1);
                  case 1 -> out.writeShort((short) 1);
                  case 2 -> out.writeInt(1);
                  case 3 -> out.writeLong(1);
                  default -> out.writeBytes(chunk, chunk.length);
                }
              }
            });
        long after = out.getFilePointer() - stoppedAt;
        assertTrue(
            "wrote " + after + " bytes after stop", after < AbortableMergeDirectory.CHECK_BYTES);
      }
      expectThrows(
          MergePolicy.MergeAbortedException.class,
          () -> abortable.createOutput("g", IOContext.DEFAULT));
      assertEquals(List.of("f"), List.of(dir.listAll()));
    }
  }

  public void testMergeStoppedWhileWritingChangesNothing() throws IOException {
    RtEngineConfig config = RtEngineConfig.defaults(SCHEMA).withMaxSegments(4);
    try (Directory nvm = new ByteBuffersDirectory()) {
      Tiers tiers = new Tiers(nvm, config);
      DescriptorTable table = new DescriptorTable();
      List<SegmentDescriptor> sources = engravedSegments(config, tiers, table, 3);
      long nvmBytes = tiers.accounts().nvm();
      long mergedId = 10;
      Merger merger =
          new Merger(
              config,
              tiers,
              new PartitionTable(table, new ReentrantLock(), mergedId),
              Pipeline.Checkpoint.NONE);
      // stop turns true once the merge has created a file of the new segment, and stays true
      AtomicBoolean stopped = new AtomicBoolean();
      BooleanSupplier stop =
          () -> {
            if (!stopped.get() && filesOf(nvm, mergedId) > 0) {
              stopped.set(true);
            }
            return stopped.get();
          };

      merger.mergeAsNeeded(stop);

      assertTrue("stop never turned true: the merge wrote nothing", stopped.get());
      assertEquals(sources, table.segments());
      for (SegmentDescriptor d : sources) {
        assertFalse(d.retired());
        assertEquals(SegmentState.ENGRAVED, d.state());
      }
      assertEquals("partial output left", 0, filesOf(nvm, mergedId));
      assertEquals(Set.of(1L, 2L, 3L), tiers.nvmSegmentIds());
      assertEquals("NVM reservation not returned", nvmBytes, tiers.accounts().nvm());
      assertFalse("an aborted merge is no refusal", merger.refused());
      assertEquals(3 * DOCS, docs(table));

      // the next merge runs to its end and the account holds exactly the merged segment
      merger.mergeAsNeeded(() -> false);
      assertEquals(1, table.segments().size());
      assertEquals(3 * DOCS, docs(table));
      table.releaseView();
      SegmentDescriptor merged = table.segments().getFirst();
      assertEquals(SegmentState.MERGED, merged.state());
      assertEquals(Set.of(merged.id()), tiers.nvmSegmentIds());
      assertEquals(merged.nvm().bytes(), tiers.accounts().nvm());
      merged.retire();
    }
  }

  /** Stop and volatile shutdown while the merger thread is inside a merge. */
  public void testStopAbortsTheRunningMergeWithoutFailure() throws Exception {
    for (boolean abandon : new boolean[] {false, true}) {
      MergeGate gate = new MergeGate();
      RtEngineConfig config = RtEngineConfig.defaults(SCHEMA).withMaxSegments(4).withCodec(gate);
      try (Directory nvm = new ByteBuffersDirectory()) {
        Tiers tiers = new Tiers(nvm, config);
        DescriptorTable table = new DescriptorTable();
        List<SegmentDescriptor> sources = engravedSegments(config, tiers, table, 3);
        long nvmBytes = tiers.accounts().nvm();
        Pipeline pipeline =
            new Pipeline(
                config,
                tiers,
                new PartitionTable(table, new ReentrantLock(), 10),
                "abort-test-",
                Pipeline.Checkpoint.NONE);
        pipeline.start();
        pipeline.mergeLater();
        await(gate.entered);
        Thread stopper =
            new Thread(
                () -> {
                  try {
                    if (abandon) {
                      pipeline.abandon();
                    } else {
                      pipeline.stop();
                    }
                  } catch (InterruptedException e) {
                    throw new AssertionError(e);
                  }
                });
        stopper.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!pipeline.cannotMakeSegmentRoom()) { // the budget refuses nothing: stopping
          assertTrue("the pipeline never began to stop", System.nanoTime() < deadline);
          Thread.sleep(1);
        }
        gate.release.countDown();
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse("stop waits for the merge", stopper.isAlive());

        String where = abandon ? "abandon" : "stop";
        pipeline.checkHealthy(); // an aborted merge is no stage failure
        assertEquals(where, sources, table.segments());
        assertEquals(where, Set.of(1L, 2L, 3L), tiers.nvmSegmentIds());
        assertEquals(where, nvmBytes, tiers.accounts().nvm());
        assertEquals(where, Map.of(), pipeline.persistRemaining());
        assertEquals(where, 3 * DOCS, docs(table));
        table.releaseView();
        for (SegmentDescriptor d : sources) {
          d.retire();
        }
      }
    }
  }

  /**
   * A graceful close while the merger is inside a merge (held there by the codec until the close
   * has told the pipeline to stop): the close aborts it and persists the rest; the reopened engine
   * holds every document in the unmerged sources, and the NVM result cache answers the queries it
   * answered before the close without a miss.
   */
  public void testGracefulCloseInsideAMergeKeepsTheSourcesAndTheCache() throws Exception {
    Random r = new Random(random().nextLong());
    Path pool = PoolPaths.poolIn(createTempDir("pool"));
    long poolBytes = 64L << 20;
    int segment = ResultCacheRestartTest.SEGMENT;
    int docs = 3 * segment + 50; // a merge starts by the third flush; writers never need its slot
    List<Query> queries = ResultCacheDifferentialTest.queryPool(r, 30);
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withSegmentSize(segment)
            .withMode(DurabilityMode.GRACEFUL)
            .withResultCache(
                ResultCacheSettings.of(
                    ResultCacheSettings.Tier.NVM, 1 << 20, CachePolicy.Kind.LRU, 0));
    MergeGate gate = new MergeGate();
    Set<Long> idsAtClose = new HashSet<>();
    try (NvmDirectory nvm = NvmDirectory.open(pool, poolBytes)) {
      RtEngine engine = RtEngine.open(nvm, config.withMaxSegments(5).withCodec(gate));
      for (int i = 0; i < docs; i++) {
        engine.add(TestCorpus.randomDocument(r, "doc" + i));
      }
      await(gate.entered);
      PipelineWaits.flushed(engine, docs, segment); // the epoch holds still from here on
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      assertTrue(engine.cacheStats().entries() > 0);
      for (RtSegmentInfo s : engine.segments()) {
        assertNotSame(SegmentState.MERGED, s.state());
        idsAtClose.add(s.id());
      }
      assertEquals("three flushed segments and the live one", 4, idsAtClose.size());

      AtomicReference<Throwable> closeFailure = new AtomicReference<>();
      Thread closer =
          new Thread(
              () -> {
                try {
                  engine.close();
                } catch (Throwable t) {
                  closeFailure.set(t);
                }
              });
      closer.start();
      awaitInPipelineStop(closer);
      gate.release.countDown();
      closer.join(TimeUnit.SECONDS.toMillis(10));
      assertFalse("close waits for the merge", closer.isAlive());
      assertNull(closeFailure.get());

      Set<Long> inNvm = new HashSet<>();
      for (String name : nvm.listAll()) {
        Long id = Tiers.segmentIdOf(name);
        if (id != null) {
          inNvm.add(id);
        }
      }
      assertEquals("sources and the close's flush, no merged segment", idsAtClose, inNvm);
    }
    try (NvmDirectory nvm = NvmDirectory.open(pool, poolBytes);
        RtEngine engine = RtEngine.open(nvm, config)) {
      RtRecovery recovery = engine.recoveries().getFirst();
      assertEquals("CLEAN", recovery.manifest());
      assertEquals(0, recovery.segmentsDropped());
      Set<Long> ids = new HashSet<>();
      for (RtSegmentInfo s : engine.segments()) {
        ids.add(s.id());
      }
      assertTrue(ids + " lacks " + idsAtClose, ids.containsAll(idsAtClose));
      assertEquals(docs, engine.stats().liveDocs());
      for (int i = 0; i < docs; i++) {
        assertNotNull("doc" + i, engine.get("doc" + i));
      }
      assertTrue("cache cold: " + engine.cacheStats(), engine.cacheStats().entries() > 0);
      for (Query q : queries) {
        ResultCacheDifferentialTest.assertSameAnswer(engine, q, 10);
      }
      ResultCacheStats after = engine.cacheStats();
      assertEquals("a miss after the restart: " + after, 0, after.misses());
      assertTrue("no hit after the restart: " + after, after.hits() > 0);
    }
  }

  /**
   * The default codec, whose stored fields writer for the first merge waits until {@link #release}
   * (the merge is then under way: other parts of the segment may be written, the stored fields are
   * not).
   */
  private static final class MergeGate extends FilterCodec {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    MergeGate() {
      super(Codec.getDefault().getName(), Codec.getDefault());
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
      StoredFieldsFormat format = delegate.storedFieldsFormat();
      return new StoredFieldsFormat() {
        @Override
        public StoredFieldsReader fieldsReader(
            Directory dir, SegmentInfo si, FieldInfos fn, IOContext context) throws IOException {
          return format.fieldsReader(dir, si, fn, context);
        }

        @Override
        public StoredFieldsWriter fieldsWriter(Directory dir, SegmentInfo si, IOContext context)
            throws IOException {
          if (context.context() == IOContext.Context.MERGE && entered.getCount() > 0) {
            entered.countDown();
            try {
              await(release);
            } catch (InterruptedException e) {
              throw new AssertionError(e);
            }
          }
          return format.fieldsWriter(dir, si, context);
        }
      };
    }
  }

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertTrue("timed out", latch.await(10, TimeUnit.SECONDS));
  }

  /**
   * Waits (bounded) until {@code closer} is inside {@link PipelineStage#stop}, which {@link
   * Pipeline#stop} calls after it set its stop flag.
   */
  private static void awaitInPipelineStop(Thread closer) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Arrays.stream(closer.getStackTrace())
        .noneMatch(
            f ->
                f.getClassName().equals(PipelineStage.class.getName())
                    && f.getMethodName().equals("stop"))) {
      assertTrue("the close never stopped the pipeline", closer.isAlive());
      assertTrue("the close never stopped the pipeline", System.nanoTime() < deadline);
      Thread.sleep(1);
    }
  }

  /** {@code count} flushed and engraved segments (ids 1..count) of {@link #DOCS} docs each. */
  private static List<SegmentDescriptor> engravedSegments(
      RtEngineConfig config, Tiers tiers, DescriptorTable table, int count) throws IOException {
    return EngravedSegments.build(
        SCHEMA,
        config,
        tiers,
        table,
        count,
        DOCS,
        (id, i) ->
            new RtDocument("d" + id + "_" + i, Map.of("body", "word" + i + " common segment" + id)));
  }

  private static int filesOf(Directory nvm, long segmentId) {
    try {
      String prefix = Tiers.namespace(segmentId);
      return (int) Arrays.stream(nvm.listAll()).filter(n -> n.startsWith(prefix)).count();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static int docs(DescriptorTable table) throws IOException {
    try (TableView.Bound bound = table.bind()) {
      return bound.leaves().stream().mapToInt(r -> r.numDocs()).sum();
    }
  }
}
