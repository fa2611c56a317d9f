package org.lucenenvm.realtime;

import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** What each engrave / pointer-update policy does to the segments, and reader references. */
public class PipelinePolicyTest extends LuceneTestCase {
  private static final int SEGMENT = 100;
  private static final int SEGMENTS = 4;

  private static RtEngine open(Directory nvm, PipelinePolicy policy, long dramBudget)
      throws Exception {
    return RtEngine.open(
        nvm,
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
            .withCodec(TestUtil.getDefaultCodec())
            .withSegmentSize(SEGMENT)
            .withDramBudgetBytes(dramBudget)
            .withMergeFactor(100)
            .withPolicy(policy));
  }

  private static void fill(RtEngine engine) {
    for (int i = 0; i < SEGMENT * SEGMENTS; i++) {
      engine.add(new RtDocument("d" + i, Map.of("body", "common word" + (i % 13))));
    }
  }

  private static int count(RtEngineStats stats, SegmentState state) {
    return stats.segments().getOrDefault(state, 0);
  }

  public void testEagerEngraveLazyPointerKeepsQueriesOnDram() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = open(nvm, PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, Long.MAX_VALUE)) {
      fill(engine);
      RtEngineStats stats =
          PipelineWaits.until(engine, s -> count(s, SegmentState.ENGRAVED) == SEGMENTS);
      assertTrue(stats.nvmBytes() > 0);
      assertTrue(stats.dramBytes() > 0);
      for (RtSegmentInfo info : engine.segments()) {
        if (info.state() == SegmentState.ENGRAVED) {
          assertEquals("DRAM", info.queryTier());
          assertTrue(info.nvmBytes() > 0);
        }
      }
    }
  }

  public void testEagerPointerUpdateMovesQueriesToNvm() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = open(nvm, PipelinePolicy.EAGER_ENGRAVE_EAGER_POINTER, Long.MAX_VALUE)) {
      fill(engine);
      RtEngineStats stats =
          PipelineWaits.until(
              engine, s -> count(s, SegmentState.COMMITTED) == SEGMENTS && s.dramBytes() == 0);
      assertTrue(stats.nvmBytes() > 0);
      for (RtSegmentInfo info : engine.segments()) {
        if (info.state() == SegmentState.COMMITTED) {
          assertEquals("NVM", info.queryTier());
          assertEquals(0, info.dramBytes());
        }
      }
      assertEquals(SEGMENT * SEGMENTS, stats.liveDocs());
    }
  }

  public void testLazyEngraveWritesNothingToNvmWithoutPressure() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = open(nvm, PipelinePolicy.LAZY_ENGRAVE_LAZY_POINTER, Long.MAX_VALUE)) {
      fill(engine);
      RtEngineStats stats =
          PipelineWaits.until(engine, s -> count(s, SegmentState.FLUSHED) == SEGMENTS);
      assertEquals(0, stats.nvmBytes());
      assertEquals(0, nvm.listAll().length);
    }
  }

  public void testSnapshotPinsItsSegmentsUntilReleased() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory()) {
      RtEngine engine = open(nvm, PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER, Long.MAX_VALUE);
      fill(engine);
      PipelineWaits.until(engine, s -> count(s, SegmentState.ENGRAVED) == SEGMENTS);
      RtSnapshot held = engine.acquireSnapshot();
      for (RtSegmentInfo info : engine.segments()) {
        if (info.state() == SegmentState.ENGRAVED) {
          assertEquals(1, info.queryReaders());
        }
      }
      RtEngineStats before = engine.stats();
      engine.close(); // retires every segment; the snapshot still references its versions
      assertEquals(
          SEGMENT * SEGMENTS,
          held.searcher().count(new TermQuery(new Term("body", "common"))));
      held.close();
      assertTrue(before.dramBytes() > 0);
      assertEquals(0, nvm.listAll().length);
    }
  }
}
