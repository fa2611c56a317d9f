package org.lucenenvm.realtime;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Under sustained ingest the table never holds more than {@code maxSegments} segments, whatever
 * the pipeline policy: writers wait for the merger instead of adding a live segment to a full
 * table, and no document is lost meanwhile.
 */
public class SegmentLimitTest extends LuceneTestCase {
  private static final int SEGMENT = 50;
  private static final int MAX_SEGMENTS = 4;

  public void testSegmentCountStaysWithinLimitUnderSustainedIngest() throws Exception {
    PipelinePolicy policy = RandomPicks.randomFrom(random(), PipelinePolicy.values());
    int docs = SEGMENT * atLeast(40);
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine =
            RtEngine.open(
                nvm,
                RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA)
                    .withCodec(TestUtil.getDefaultCodec())
                    .withSegmentSize(SEGMENT)
                    .withMaxSegments(MAX_SEGMENTS)
                    .withMergeFactor(3)
                    .withPolicy(policy))) {
      AtomicBoolean done = new AtomicBoolean();
      AtomicInteger maxSeen = new AtomicInteger();
      AtomicInteger samples = new AtomicInteger();
      Thread sampler =
          new Thread(
              () -> {
                while (!done.get()) {
                  maxSeen.accumulateAndGet(engine.segments().size(), Math::max);
                  samples.incrementAndGet();
                  Thread.onSpinWait();
                }
              });
      sampler.start();
      try {
        for (int i = 0; i < docs; i++) {
          engine.add(new RtDocument("d" + i, Map.of("body", "common word" + (i % 17))));
          maxSeen.accumulateAndGet(engine.segments().size(), Math::max);
        }
      } finally {
        done.set(true);
        sampler.join();
      }
      assertTrue("no sample taken", samples.get() > 0);
      assertTrue(
          policy + ": " + maxSeen.get() + " segments seen, limit " + MAX_SEGMENTS,
          maxSeen.get() <= MAX_SEGMENTS);
      assertEquals(docs, engine.count(new TermQuery(new Term("body", "common"))));
      assertEquals(docs, engine.stats().liveDocs());
    }
  }
}
