package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;

/** The pipeline's indexer and merger threads run at the configured nice value (Linux). */
public class BackgroundNiceTest extends LuceneTestCase {

  public void testPipelineThreadsRunAtTheConfiguredNice() throws Exception {
    assumeTrue("thread nice values are read from /proc", Constants.LINUX);
    int nice = 7;
    assumeTrue("this process runs at nice " + processNice() + " already", processNice() < nice);
    RtEngineConfig config =
        RtEngineConfig.defaults(RtEngineDifferentialTest.SCHEMA).withBackgroundNice(nice);
    try (RtEngine engine = RtEngine.open(new ByteBuffersDirectory(), config)) {
      engine.add(TestCorpus.randomDocument(random(), "doc0"));
      // a stage lowers its priority when its thread starts, which may be just after open returns
      Map<String, Set<Integer>> stages = Map.of();
      for (int attempt = 0; attempt < 200 && !bothAt(stages, nice); attempt++) {
        Thread.sleep(50);
        stages = stageNices();
      }
      assertTrue("pipeline threads' nice values: " + stages, bothAt(stages, nice));
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

  private static boolean bothAt(Map<String, Set<Integer>> stages, int nice) {
    return stages.getOrDefault("rt-p0-indexer", Set.of()).contains(nice)
        && stages.getOrDefault("rt-p0-merger", Set.of()).contains(nice);
  }

  /** Nice values of this JVM's threads named rt-p0-indexer and rt-p0-merger. */
  private static Map<String, Set<Integer>> stageNices() throws IOException {
    Map<String, Set<Integer>> nices = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name.equals("rt-p0-indexer") || name.equals("rt-p0-merger")) {
          nices.computeIfAbsent(name, n -> new HashSet<>()).add(niceOf(stat));
        }
      }
    }
    return nices;
  }

  private static int processNice() throws IOException {
    return niceOf(Files.readString(Path.of("/proc/self/stat")));
  }

  /** Field 19 of a /proc stat line (the fields after the command name start at field 3). */
  private static int niceOf(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[19 - 3]);
  }
}
