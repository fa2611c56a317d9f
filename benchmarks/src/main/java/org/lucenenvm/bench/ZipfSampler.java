package org.lucenenvm.bench;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Draws ranks {@code 0 .. n-1} with probability proportional to {@code 1 / (rank + 1)^s}.
 *
 * <p>Inverse-CDF sampling (the table is built with {@link StrictMath}, so it is the same on every JVM) over a precomputed cumulative table ({@code 8 * n} bytes, independent of
 * how many samples are drawn), one binary search per sample.
 */
public final class ZipfSampler {

  private final double[] cumulative;

  /** A sampler over {@code n} ranks with exponent {@code s > 0}. */
  public ZipfSampler(int n, double s) {
    if (n < 1) {
      throw new IllegalArgumentException("vocabulary size must be >= 1: " + n);
    }
    if (!(s > 0) || Double.isInfinite(s)) {
      throw new IllegalArgumentException("Zipf exponent must be a finite number > 0: " + s);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += StrictMath.pow(i + 1, -s);
      cumulative[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** Number of ranks. */
  public int size() {
    return cumulative.length;
  }

  /** Probability of {@code rank}. */
  public double probability(int rank) {
    return rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
  }

  /** One rank drawn with {@code random}. */
  public int sample(RandomGenerator random) {
    double u = random.nextDouble();
    int i = Arrays.binarySearch(cumulative, u);
    int rank = i >= 0 ? i + 1 : -i - 1;
    return Math.min(rank, cumulative.length - 1);
  }
}
