package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of child JVMs: {@code compare}'s baseline and candidate alternated, {@code A B A B ...},
 * so that a drift in the machine's speed during the run falls on both sides alike; {@code run
 * --forks}'s configurations rotated by one per round ({@code A B C}, {@code B C A}, {@code C A B},
 * ...), so that no configuration always runs first or last.
 */
public final class JvmSchedule {

  /** Index of the baseline side. */
  public static final int BASELINE = 0;
  /** Index of the candidate side. */
  public static final int CANDIDATE = 1;

  private JvmSchedule() {}

  /** The side ({@link #BASELINE} or {@link #CANDIDATE}) of each JVM in run order, {@code jvmsPerSide} of each. */
  public static List<Integer> alternate(int jvmsPerSide) {
    if (jvmsPerSide < 1) {
      throw new IllegalArgumentException("JVMs per side must be >= 1: " + jvmsPerSide);
    }
    List<Integer> order = new ArrayList<>(2 * jvmsPerSide);
    for (int i = 0; i < jvmsPerSide; i++) {
      order.add(BASELINE);
      order.add(CANDIDATE);
    }
    return List.copyOf(order);
  }

  /**
   * The configurations ({@code 0 .. count-1}) of round {@code round} (1-based) in run order: the
   * configuration order rotated left by {@code round - 1}.
   */
  public static List<Integer> rotated(int count, int round) {
    if (count < 1 || round < 1) {
      throw new IllegalArgumentException("need >= 1 configuration and round >= 1: " + count + ", " + round);
    }
    List<Integer> order = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      order.add((i + round - 1) % count);
    }
    return List.copyOf(order);
  }
}
