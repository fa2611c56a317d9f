package org.lucenenvm.bench;

import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/**
 * Baseline against candidate for one task category: both sides' {@link SideStatistics}, the QPS
 * difference in percent of the baseline, the ratio of the median QPS, the two-sided Welch t-test
 * p-value of the per-JVM QPS (commons-statistics {@link TTest} with unequal variances), and how
 * many queries returned different top-k hits.
 *
 * @param category task category, or {@value ResultRow#ALL}
 * @param baseline the baseline's JVMs
 * @param candidate the candidate's JVMs
 * @param hits queries whose hits were compared and how many differed; {@code null} where no check
 *     applies (WRT sides, whose index changes while they query)
 */
public record CategoryComparison(String category, SideStatistics baseline, SideStatistics candidate, HitIdentities.Difference hits) {

  /** Candidate QPS against baseline QPS, in percent: {@code 100 (cand - base) / base}. */
  public double qpsDiffPercent() {
    return 100 * (candidate.qpsMean() - baseline.qpsMean()) / baseline.qpsMean();
  }

  /** Candidate's median QPS over the baseline's: robust to a side's odd JVM, which the means are not. */
  public double medianQpsRatio() {
    return candidate.qpsMedian() / baseline.qpsMedian();
  }

  /**
   * Two-sided Welch t-test p-value of the hypothesis that both sides have the same mean QPS; {@code
   * NaN} if a side has fewer than two JVMs or neither side varies at all.
   */
  public double pValue() {
    return welchPValue(baseline.qps(), candidate.qps());
  }

  /** Two-sided Welch (unequal variances) t-test p-value of {@code a} against {@code b}. */
  public static double welchPValue(double[] a, double[] b) {
    if (a.length < 2 || b.length < 2) {
      return Double.NaN;
    }
    if (constant(a) && constant(b)) {
      return Double.NaN;
    }
    return TTest.withDefaults().with(DataDispersion.HETEROSCEDASTIC).test(a, b).getPValue();
  }

  /** Whether all values of a sample are equal (if both samples are constant, t is undefined). */
  private static boolean constant(double[] values) {
    for (double v : values) {
      if (v != values[0]) {
        return false;
      }
    }
    return true;
  }
}
