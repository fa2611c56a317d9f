package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.lucenenvm.realtime.CrashConsistentEngine.Op;

/**
 * The kill test's operation stream: a seeded sequence of adds, updates and deletes, each valid for
 * the state the ones before it leave, so the child JVM that runs it and the parent that checks it
 * generate the same operation number n. Also the model: the state after the operations so far.
 */
final class KillTestWorkload {
  private final Random random;
  private final Map<String, String> state = new LinkedHashMap<>();
  private long generated;
  private Op pending;
  private final List<Op> history;

  /**
   * The stream of {@code seed}; with {@code keepHistory} it remembers every operation (for the
   * parent's diagnosis of a failed point; the child, which only replays, does not need them).
   */
  KillTestWorkload(long seed, boolean keepHistory) {
    this.random = new Random(seed);
    this.history = keepHistory ? new ArrayList<>() : null;
  }

  /** The operations applied so far, in order (operation n at index n). */
  List<Op> history() {
    if (history == null) {
      throw new IllegalStateException("this workload keeps no history");
    }
    return history;
  }

  /** Operation number {@link #applied()} (the next one), generated once. */
  Op next() {
    if (pending == null) {
      pending = CrashConsistentEngine.randomOp(random, state, (int) generated);
    }
    return pending;
  }

  /** Applies {@link #next()} to the model. */
  void advance() {
    if (history != null) {
      history.add(next());
    }
    next().applyTo(state);
    pending = null;
    generated++;
  }

  /** Operations applied to the model so far. */
  long applied() {
    return generated;
  }

  /** The model: id to body after the operations applied so far. */
  Map<String, String> state() {
    return state;
  }

  /** The model after the operations applied so far and {@link #next()}. */
  Map<String, String> stateWithNext() {
    Map<String, String> with = new LinkedHashMap<>(state);
    next().applyTo(with);
    return with;
  }
}
