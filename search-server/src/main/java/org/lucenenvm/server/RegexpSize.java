package org.lucenenvm.server;

import org.apache.lucene.util.automaton.RegExp;

/**
 * Estimates how many automaton states a parsed {@link RegExp} describes, from its syntax tree,
 * without building the automaton: repetition multiplies ({@code a{1000000}} is a million states),
 * everything else adds. The estimate saturates at {@link Long#MAX_VALUE}; it only has to separate
 * cheap expressions from ruinous ones.
 */
final class RegexpSize {
  private RegexpSize() {}

  /** The estimated number of states of {@code re}. */
  static long states(RegExp re) {
    return switch (re.kind) {
      case REGEXP_REPEAT_MIN -> saturatedMultiply(states(re.exp1), (long) re.min + 1);
      case REGEXP_REPEAT_MINMAX -> saturatedMultiply(states(re.exp1), Math.max(1, re.max));
      case REGEXP_STRING -> re.s.length() + 1L;
      case REGEXP_INTERVAL -> 10L * Math.max(1, re.digits) + 1;
      default -> saturatedAdd(1, saturatedAdd(sub(re.exp1), sub(re.exp2)));
    };
  }

  private static long sub(RegExp re) {
    return re == null ? 0 : states(re);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static long saturatedMultiply(long a, long b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
