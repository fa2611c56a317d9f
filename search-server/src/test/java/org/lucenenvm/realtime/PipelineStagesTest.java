package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Flusher, engraver and committer on their own, each handing the descriptor on. */
public class PipelineStagesTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtSchema.builder().text("body").build();

  private RtEngineConfig config(PipelinePolicy policy, long dramBudget) throws IOException {
    return RtEngineConfig.defaults(SCHEMA)
        .withCodec(TestUtil.getDefaultCodec())
        .withPolicy(policy)
        .withDramBudgetBytes(dramBudget);
  }

  private static SegmentDescriptor fullLiveSegment(
      RtEngineConfig config, Tiers tiers, DescriptorTable table) {
    return fullLiveSegment(config, tiers, table, 7);
  }

  private static SegmentDescriptor fullLiveSegment(
      RtEngineConfig config, Tiers tiers, DescriptorTable table, long id) {
    LiveSegment segment = new LiveSegment(SCHEMA, 3);
    DocumentInverter inverter =
        new DocumentInverter(SCHEMA, config.analyzer(), config.similarity());
    for (int i = 0; i < 3; i++) {
      segment.add(inverter.invert(new RtDocument("d" + i, Map.of("body", "word" + i + " common"))));
    }
    SegmentDescriptor d =
        new SegmentDescriptor(id, 0, 3, tiers.live(segment), SegmentState.INGESTED);
    table.add(d);
    return d;
  }

  /** The pipeline's view of {@code table}, with a lock of its own. */
  private static PartitionTable pipelineView(DescriptorTable table) {
    return new PartitionTable(table, new ReentrantLock(), 100);
  }

  private static int docs(DescriptorTable table) throws IOException {
    try (TableView.Bound bound = table.bind()) {
      return bound.leaves().stream().mapToInt(r -> r.numDocs()).sum();
    }
  }

  public void testFlushEngraveCommitHandTheSegmentOn() throws IOException {
    RtEngineConfig config = config(PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, 0);
    try (Directory nvm = new ByteBuffersDirectory()) {
      Tiers tiers = new Tiers(nvm, config);
      DescriptorTable table = new DescriptorTable();
      SegmentDescriptor d = fullLiveSegment(config, tiers, table);
      PartitionTable view = pipelineView(table);

      long version = table.version();
      new Flusher(tiers, view).flush(d);
      assertEquals(SegmentState.FLUSHED, d.state());
      assertEquals(SegmentVersion.Tier.DRAM, d.global().tier());
      assertTrue(table.version() > version);
      assertTrue(tiers.accounts().dram() > 0);
      assertNotNull(d.idFilter());
      assertEquals(3, docs(table));

      Engraver engraver = new Engraver(tiers, () -> {}, () -> true);
      engraver.engrave(d);
      assertEquals(SegmentState.ENGRAVED, d.state());
      assertEquals(SegmentVersion.Tier.DRAM, d.global().tier()); // queries stay on DRAM
      assertEquals(Long.valueOf(7), tiers.nvmSegmentIds().iterator().next());
      assertEquals(d.dram().bytes(), tiers.accounts().nvm());

      List<SegmentDescriptor> handedOn = new ArrayList<>();
      Committer committer =
          new Committer(config.policy(), tiers.accounts(), engraver, view, handedOn::add);
      TableView.Bound query = table.bind(); // a query still reading the DRAM copy
      committer.offer(d); // DRAM budget 0: over budget, so the lazy pointer moves now
      assertEquals(List.of(d), handedOn);
      assertEquals(SegmentState.COMMITTED, d.state());
      assertEquals(SegmentVersion.Tier.NVM, d.global().tier());
      assertTrue("the query pins the DRAM copy", tiers.accounts().dram() > 0);
      query.close();
      assertEquals(0, tiers.accounts().dram());
      assertEquals(3, docs(table));
      table.releaseView();
      d.retire();
    }
  }

  public void testLazyPointerKeepsDramWithinBudget() throws IOException {
    RtEngineConfig config = config(PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, Long.MAX_VALUE);
    try (Directory nvm = new ByteBuffersDirectory()) {
      Tiers tiers = new Tiers(nvm, config);
      DescriptorTable table = new DescriptorTable();
      SegmentDescriptor d = fullLiveSegment(config, tiers, table);
      PartitionTable view = pipelineView(table);
      new Flusher(tiers, view).flush(d);
      Engraver engraver = new Engraver(tiers, () -> {}, () -> true);
      List<SegmentDescriptor> handedOn = new ArrayList<>();
      new Committer(config.policy(), tiers.accounts(), engraver, view, handedOn::add).offer(d);
      assertEquals(List.of(), handedOn);
      assertEquals(SegmentState.FLUSHED, d.state()); // engraving is the engraver's job
      assertEquals(SegmentVersion.Tier.DRAM, d.global().tier());
      table.releaseView();
      d.retire();
      assertEquals(0, tiers.accounts().dram());
    }
  }

  /** A writer waiting for a segment slot is woken by the merge that freed one, after the swap. */
  public void testMergeWakesWritersWaitingForASlot() throws Exception {
    RtEngineConfig config = config(PipelinePolicy.EAGER_ENGRAVE_EAGER_POINTER, 0);
    try (Directory nvm = new ByteBuffersDirectory()) {
      Tiers tiers = new Tiers(nvm, config);
      DescriptorTable table = new DescriptorTable();
      ReentrantLock writeLock = new ReentrantLock();
      PartitionTable view = new PartitionTable(table, writeLock, 3);
      Flusher flusher = new Flusher(tiers, view);
      Engraver engraver = new Engraver(tiers, () -> {}, () -> true);
      List<SegmentDescriptor> sources = new ArrayList<>();
      for (long id = 1; id <= 2; id++) {
        SegmentDescriptor d = fullLiveSegment(config, tiers, table, id);
        flusher.flush(d);
        engraver.engrave(d);
        sources.add(d);
      }
      long waitMillis = TimeUnit.SECONDS.toMillis(60);
      CountDownLatch waiting = new CountDownLatch(1);
      AtomicInteger segmentsWhenWoken = new AtomicInteger(-1);
      AtomicLong wokenAfterNanos = new AtomicLong();
      Thread writer =
          new Thread(
              () -> {
                writeLock.lock();
                try {
                  waiting.countDown();
                  long start = System.nanoTime();
                  while (table.segments().size() > 1
                      && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(waitMillis)) {
                    view.awaitSegmentRoom(waitMillis);
                  }
                  wokenAfterNanos.set(System.nanoTime() - start);
                  segmentsWhenWoken.set(table.segments().size());
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                } finally {
                  writeLock.unlock();
                }
              });
      writer.start();
      waiting.await();
      // the merge's swap takes the lock, so it runs once the writer waits and released it
      Merger merger = new Merger(config, tiers, view, Pipeline.Checkpoint.NONE);
      assertTrue(merger.merge(sources, () -> false));
      writer.join(waitMillis);
      assertFalse(writer.isAlive());
      assertEquals("woken after the swap", 1, segmentsWhenWoken.get());
      assertTrue(
          "woken by the merge, not by the timeout",
          wokenAfterNanos.get() < TimeUnit.MILLISECONDS.toNanos(waitMillis));
      assertEquals(3, table.segments().getFirst().id());
      assertEquals(4, view.nextSegmentId());
      assertEquals(6, docs(table));
      table.releaseView();
      for (SegmentDescriptor d : table.segments()) {
        d.retire();
      }
    }
  }
}
