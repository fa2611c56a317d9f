package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.Test;
import picocli.CommandLine;

/** The statistics of {@code compare} against known values, the alternation order and the load parser. */
public class TestCompareStatistics {

  // R's sleep data set (Student's 1908 data), extra hours of sleep per group.
  private static final double[] SLEEP_GROUP_1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
  private static final double[] SLEEP_GROUP_2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

  @Test
  public void welchPValueMatchesR() {
    // R: t.test(extra ~ group, data = sleep)  (Welch is R's default)
    //   t = -1.8608, df = 17.776, p-value = 0.07939
    assertEquals(0.07939, CategoryComparison.welchPValue(SLEEP_GROUP_1, SLEEP_GROUP_2), 5e-6);
    assertEquals(0.07939, CategoryComparison.welchPValue(SLEEP_GROUP_2, SLEEP_GROUP_1), 5e-6);
  }

  @Test
  public void welchPValueOfUnequalVariances() {
    // R: t.test(c(1,2,3,4,5), c(2,4,6,8,10))  ->  t = -1.8974, df = 5.8824, p-value = 0.1075
    // (by hand: means 3 and 6, variances 2.5 and 10, se = sqrt(2.5/5 + 10/5) = 1.5811,
    // df = 2.5^2 / (0.5^2/4 + 2^2/4) = 5.8824)
    assertEquals(0.1075, CategoryComparison.welchPValue(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 6, 8, 10}), 5e-4);
  }

  @Test
  public void pValueIsUndefinedWithoutVarianceOrWithOneJvm() {
    assertTrue(Double.isNaN(CategoryComparison.welchPValue(new double[] {3, 3}, new double[] {3, 3})));
    assertTrue(Double.isNaN(CategoryComparison.welchPValue(new double[] {3}, new double[] {3, 4})));
    assertEquals(1.0, CategoryComparison.welchPValue(new double[] {1, 2, 3}, new double[] {1, 2, 3}), 1e-12);
  }

  @Test
  public void sideStatistics() {
    SideStatistics s = new SideStatistics(new double[] {100, 110, 120, 130}, new double[] {5, 1, 3, 4}, new double[] {50, 10, 30, 40});
    assertEquals(115, s.qpsMean(), 1e-12);
    assertEquals(115, s.qpsMedian(), 1e-12);
    assertEquals(Math.sqrt(500.0 / 3), s.qpsStandardDeviation(), 1e-12); // sample sd, n - 1
    assertEquals(3.5, s.p50MedianMicros(), 1e-12);
    assertEquals(35, s.p99MedianMicros(), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> new SideStatistics(new double[] {1, 2}, new double[] {1}, new double[] {1, 2}));
  }

  @Test
  public void diffPercentIsRelativeToTheBaseline() {
    SideStatistics base = new SideStatistics(new double[] {100, 100}, new double[] {1, 1}, new double[] {2, 2});
    SideStatistics cand = new SideStatistics(new double[] {120, 130}, new double[] {1, 1}, new double[] {2, 2});
    assertEquals(25.0, new CategoryComparison("TermHigh", base, cand, null).qpsDiffPercent(), 1e-12);
  }

  @Test
  public void theMedianRatioIsNotPulledByOneSlowJvm() {
    SideStatistics base = new SideStatistics(new double[] {100, 100, 40}, new double[] {1, 1, 1}, new double[] {2, 2, 2});
    SideStatistics cand = new SideStatistics(new double[] {100, 90, 110}, new double[] {1, 1, 1}, new double[] {2, 2, 2});
    CategoryComparison c = new CategoryComparison("TermHigh", base, cand, null);
    assertEquals(1.0, c.medianQpsRatio(), 1e-12);
    assertEquals(25.0, c.qpsDiffPercent(), 1e-12);
  }

  @Test
  public void jvmsAlternateBaselineAndCandidate() {
    assertEquals(List.of(0, 1, 0, 1, 0, 1), JvmSchedule.alternate(3));
    assertEquals(List.of(JvmSchedule.BASELINE, JvmSchedule.CANDIDATE), JvmSchedule.alternate(1));
    assertThrows(IllegalArgumentException.class, () -> JvmSchedule.alternate(0));
    assertEquals(List.of(0, 1, 2), JvmSchedule.rotated(3, 1));
    assertEquals(List.of(1, 2, 0), JvmSchedule.rotated(3, 2));
    assertEquals(List.of(2, 0, 1), JvmSchedule.rotated(3, 3));
    assertEquals(List.of(0, 1, 2), JvmSchedule.rotated(3, 4));
    assertThrows(IllegalArgumentException.class, () -> JvmSchedule.rotated(0, 1));
    assertThrows(IllegalArgumentException.class, () -> JvmSchedule.rotated(3, 0));
  }

  @Test
  public void loadAveragesParseFromProcLoadavg() {
    MachineLoad load = MachineLoad.parse(Instant.EPOCH, "2.31 1.05 0.40 3/512 12345\n");
    assertEquals(2.31, load.one(), 0);
    assertEquals(1.05, load.five(), 0);
    assertEquals(0.40, load.fifteen(), 0);
    assertEquals("2.31, 1.05, 0.40", load.averages());
    assertThrows(IllegalArgumentException.class, () -> MachineLoad.parse(Instant.EPOCH, "garbage"));
  }

  @Test
  public void compareRejectsOneJvmPerSideMixedModesAndBadWarmUpsInOneLineBeforeDoingAnything() throws Exception {
    Path out = Files.createTempDirectory("compare-bad");
    try {
      for (List<String> sides : List.of(List.of("--jvms", "1", "--baseline", "lucene-dram", "--candidate", "lucene-nvm"),
          List.of("--baseline", "lucene-dram", "--candidate", "nrt-10"),
          List.of("--warmup-runs", "-1", "--baseline", "nrt-inf", "--candidate", "nrt-10"),
          List.of("--warmup-docs", "0", "--baseline", "nrt-inf", "--candidate", "nrt-10"))) {
        List<String> args = new java.util.ArrayList<>(List.of("compare", "--corpus", "no-such-corpus.txt", "--tasks", "no.tasks", "--out", out.resolve("o").toString()));
        args.addAll(sides);
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCli.commandLine();
        cli.setErr(new PrintWriter(err));
        assertEquals(1, cli.execute(args.toArray(String[]::new)));
        String expected = !sides.get(0).equals("--baseline") ? sides.get(0) + " must be >= " : "must both be NC configurations or both WRT runs";
        assertTrue(err.toString(), err.toString().contains(expected));
        assertTrue(err.toString(), err.toString().startsWith("compare: "));
        assertFalse(err.toString(), err.toString().contains("\tat ")); // one line, no stack trace
        assertFalse(Files.exists(out.resolve("o")));
      }
    } finally {
      Files.delete(out);
    }
  }

  @Test
  public void hitsCompareIdentitiesAndExactCountsButNotTwoLowerBounds() {
    assertTrue(HitIdentities.sameHits("3\t42\t2.5|d1|a\t1.5|d2|b", "3\t42\t2.5|d1|a\t1.5|d2|b"));
    assertFalse(HitIdentities.sameHits("3\t42\t2.5|d1|a\t1.5|d2|b", "3\t42\t2.5|d2|b\t1.5|d1|a")); // rank order counts
    assertFalse(HitIdentities.sameHits("3\t42\t2.5|d1|a", "3\t42\t2.4|d1|a")); // scores count
    assertFalse(HitIdentities.sameHits("3\t42\t2.5|d1|a", "3\t43\t2.5|d1|a"));
    assertTrue(HitIdentities.sameHits("3\t1000+\t2.5|d1|a", "3\t1870+\t2.5|d1|a"));
    assertTrue(HitIdentities.sameHits("3\t1870\t2.5|d1|a", "3\t1000+\t2.5|d1|a"));
    assertFalse(HitIdentities.sameHits("3\t900\t2.5|d1|a", "3\t1000+\t2.5|d1|a"));
    // Equal scores in another order (other doc ids): the same hits.
    assertTrue(HitIdentities.sameHits("3\t42\t2.5|d1|a\t2.5|d2|b\t1.0|d3|c", "3\t42\t2.5|d2|b\t2.5|d1|a\t1.0|d3|c"));
    // A tie group inside the top-k must hold the same documents ...
    assertFalse(HitIdentities.sameHits("3\t42\t2.5|d1|a\t2.5|d2|b\t1.0|d3|c", "3\t42\t2.5|d1|a\t2.5|d9|z\t1.0|d3|c"));
    // ... but the last group may be any of the documents with that score.
    assertTrue(HitIdentities.sameHits("3\t42\t2.5|d1|a\t1.0|d3|c", "3\t42\t2.5|d1|a\t1.0|d7|g"));
    assertTrue(HitIdentities.sameHits("3\t0", "3\t0"));
  }

  @Test
  public void sidesAreNcConfigurationsOrWrtRuns() {
    assertEquals(new CompareSide("lucene-dram", false), CompareSide.parse("lucene-dram"));
    CompareSide nrt = CompareSide.parse("nrt-10");
    assertTrue(nrt.realTime());
    assertEquals(List.of("--modes", "wrt", "--nrt", "10", "--rt", "none"), nrt.runArgs());
    assertEquals(List.of("--modes", "wrt", "--nrt", "none", "--rt", "volatile-eager-lazy"), CompareSide.parse("rt-volatile-eager-lazy").runArgs());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CompareSide.parse("lucene-ssd"));
    assertTrue(e.getMessage(), e.getMessage().contains("lucene-ssd") && e.getMessage().contains("lucene-dram"));
    assertThrows(IllegalArgumentException.class, () -> CompareSide.parse("nrt-often"));
  }
}
