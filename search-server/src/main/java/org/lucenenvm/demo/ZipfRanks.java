package org.lucenenvm.demo;

/**
 * Popularity ranks {@code 0..n-1} following Zipf's law with exponent 1: rank {@code r} is drawn
 * with probability proportional to {@code 1 / (r + 1)}. Deterministic: the caller supplies the
 * uniform draw, so any random source (and seed) can drive it.
 */
public final class ZipfRanks {
  private final double[] cumulative;

  /** The distribution over {@code n} ranks. */
  public ZipfRanks(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("a Zipf distribution needs at least one rank, got " + n);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1.0 / (i + 1);
      cumulative[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** The rank drawn by the uniform value {@code u} in {@code [0, 1)}. */
  public int rank(double u) {
    int lo = 0;
    int hi = cumulative.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
