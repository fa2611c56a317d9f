package org.lucenenvm.realtime;

import java.util.concurrent.atomic.LongAdder;

/** Diagnostic only: phase times of cached searches by key operator. */
public final class Diag {
  public static volatile boolean on;
  static final String[] PHASES = {"head", "missWeight", "epoch", "parts", "admit", "tail", "merge", "result", "uncached", "missTotal", "hitTotal", "uncachedWeight", "uncachedSearch", "aLockWait", "aPending", "aInsert", "aPut", "aSlow100us", "aSlow1ms", "headInvalidate"};
  static final LongAdder[][] NANOS = new LongAdder[4][PHASES.length];
  static final LongAdder[][] COUNT = new LongAdder[4][PHASES.length];
  static {
    for (int o = 0; o < 4; o++) for (int p = 0; p < PHASES.length; p++) { NANOS[o][p] = new LongAdder(); COUNT[o][p] = new LongAdder(); }
    Runtime.getRuntime().addShutdownHook(new Thread(Diag::print));
  }
  public static void add(int op, int phase, long nanos) {
    if (on) { NANOS[op][phase].add(nanos); COUNT[op][phase].increment(); }
  }
  public static void print() {
    String[] ops = {"SINGLE", "AND", "OR", "other"};
    for (int o = 0; o < 4; o++) {
      StringBuilder sb = new StringBuilder("DIAG " + ops[o] + ":");
      for (int p = 0; p < PHASES.length; p++) {
        long c = COUNT[o][p].sum();
        if (c > 0) sb.append(String.format(" %s=%.1fus(n=%d)", PHASES[p], NANOS[o][p].sum() / 1e3 / c, c));
      }
      System.err.println(sb);
    }
  }
}
