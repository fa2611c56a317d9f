package org.lucenenvm.realtime;

import java.util.Map;
import java.util.Set;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;

/** The pipeline's indexer and merger threads run at the configured nice value (Linux). */
public class BackgroundNiceTest extends LuceneTestCase {

  public void testPipelineThreadsRunAtTheConfiguredNice() throws Exception {
    assumeTrue("thread nice values are read from /proc", Constants.LINUX);
    int nice = 7;
    assumeTrue(
        "this process runs at nice " + ThreadNices.processNice() + " already",
        ThreadNices.processNice() < nice);
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA).withBackgroundNice(nice);
    try (RtEngine engine = RtEngine.open(new ByteBuffersDirectory(), config)) {
      engine.add(TestCorpus.randomDocument(random(), "doc0"));
      Set<String> stages = ThreadNices.stageThreads(0);
      Map<String, Set<Integer>> seen = ThreadNices.await(stages, nice);
      assertTrue("pipeline threads' nice values: " + seen, ThreadNices.allAt(seen, stages, nice));
    }
  }

  public void testNiceOutsideLinuxRangeIsRejected() {
    RtEngineConfig config = RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA);
    for (int bad : new int[] {-1, 20}) {
      IllegalArgumentException e =
          expectThrows(IllegalArgumentException.class, () -> config.withBackgroundNice(bad));
      assertTrue(e.getMessage(), e.getMessage().contains("backgroundNice"));
    }
    assertEquals(0, config.withBackgroundNice(0).backgroundNice());
  }
}
