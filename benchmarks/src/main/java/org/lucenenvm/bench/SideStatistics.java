package org.lucenenvm.bench;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.StandardDeviation;

/**
 * One side's measurements of one task category over its JVMs (one value per JVM), summarized:
 * QPS mean, median and sample standard deviation, and the medians of the JVMs' P50 and P99
 * latencies.
 *
 * @param qps QPS of each JVM
 * @param p50Micros P50 latency of each JVM, µs
 * @param p99Micros P99 latency of each JVM, µs
 */
public record SideStatistics(double[] qps, double[] p50Micros, double[] p99Micros) {

  /** Checks that every JVM has all three values. */
  public SideStatistics {
    if (qps.length == 0 || qps.length != p50Micros.length || qps.length != p99Micros.length) {
      throw new IllegalArgumentException("one QPS, P50 and P99 per JVM expected: " + qps.length + ", " + p50Micros.length + ", " + p99Micros.length);
    }
  }

  /** Number of JVMs. */
  public int jvms() {
    return qps.length;
  }

  /** Mean QPS over the JVMs. */
  public double qpsMean() {
    return Mean.of(qps).getAsDouble();
  }

  /** Median QPS over the JVMs: unlike the mean, not pulled by one JVM in a slower JIT mode. */
  public double qpsMedian() {
    return Median.withDefaults().evaluate(qps);
  }

  /** Sample standard deviation (n - 1) of the JVMs' QPS; 0 for one JVM. */
  public double qpsStandardDeviation() {
    return qps.length < 2 ? 0 : StandardDeviation.of(qps).getAsDouble();
  }

  /** Median of the JVMs' P50 latencies, µs. */
  public double p50MedianMicros() {
    return Median.withDefaults().evaluate(p50Micros);
  }

  /** Median of the JVMs' P99 latencies, µs. */
  public double p99MedianMicros() {
    return Median.withDefaults().evaluate(p99Micros);
  }
}
