package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * A uniform sample (reservoir sampling, Algorithm R) of at most {@code capacity} distinct unordered
 * term-rank pairs out of a stream of arbitrary length, in memory proportional to the capacity.
 */
final class PairReservoir {

  private final int capacity;
  private final RandomGenerator random;
  private final List<long[]> pairs = new ArrayList<>();
  private final Set<Long> keys = new HashSet<>();
  private long offered;

  PairReservoir(int capacity, RandomGenerator random) {
    this.capacity = capacity;
    this.random = random;
  }

  /** Offers the pair {@code (a, b)}; pairs already held are ignored. */
  void offer(int a, int b) {
    long key = key(a, b);
    if (a == b || keys.contains(key)) {
      return;
    }
    offered++;
    if (pairs.size() < capacity) {
      pairs.add(new long[] {Math.min(a, b), Math.max(a, b)});
      keys.add(key);
      return;
    }
    long slot = random.nextLong(offered);
    if (slot < capacity) {
      long[] old = pairs.get((int) slot);
      keys.remove(key((int) old[0], (int) old[1]));
      pairs.set((int) slot, new long[] {Math.min(a, b), Math.max(a, b)});
      keys.add(key);
    }
  }

  /** The sampled pairs as {@code {smaller rank, larger rank}}. */
  List<int[]> pairs() {
    List<int[]> result = new ArrayList<>(pairs.size());
    for (long[] p : pairs) {
      result.add(new int[] {(int) p[0], (int) p[1]});
    }
    return result;
  }

  private static long key(int a, int b) {
    return ((long) Math.min(a, b) << 32) | Math.max(a, b);
  }
}
