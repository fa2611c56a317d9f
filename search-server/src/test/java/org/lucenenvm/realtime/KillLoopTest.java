package org.lucenenvm.realtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.PoolPaths;

/**
 * A short {@link KillLoop}: the child JVM is killed with SIGKILL at 30 points aimed at every
 * pipeline stage; after each, recovery holds exactly the acknowledged operations (or those plus
 * the one in flight). The 1,000-point run is scripts/killtest.sh.
 */
public class KillLoopTest extends LuceneTestCase {
  public void testThirtyKillPoints() throws Exception {
    runPoints(30);
  }

  @Nightly
  public void testTwoHundredKillPoints() throws Exception {
    runPoints(200);
  }

  private void runPoints(int points) throws Exception {
    Path dir = PoolPaths.imageDir(createTempDir("killtest"));
    KillLoop loop = new KillLoop(random().nextLong(), dir, 500);
    List<String> log = new ArrayList<>();
    List<KillLoop.Point> results;
    try {
      results = loop.run(points, p -> log.add(p.csv()));
    } finally {
      PoolPaths.deleteImages(dir);
    }
    for (KillLoop.Point p : results) {
      assertEquals(KillLoop.CSV_HEADER + "\n" + String.join("\n", log), "ok", p.result());
    }
    assertEquals(points, results.size());
    assertTrue(log.toString(), results.getLast().ackedOps() > points);
    assertTrue("stages hit: " + KillLoop.distribution(results), KillLoop.distribution(results).size() >= 3);
  }
}
