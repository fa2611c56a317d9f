package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of {@code compare}'s child JVMs: baseline and candidate alternated, {@code A B A B ...},
 * so that a drift in the machine's speed during the run falls on both sides alike.
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
}
