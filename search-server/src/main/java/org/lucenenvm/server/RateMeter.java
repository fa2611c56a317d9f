package org.lucenenvm.server;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts events and reports their total and their rate over the last {@value #WINDOW_SECONDS}
 * complete seconds (one counter per second in a ring).
 */
final class RateMeter {
  static final int WINDOW_SECONDS = 10;
  private static final int SLOTS = WINDOW_SECONDS + 2;

  private final LongAdder total = new LongAdder();
  private final AtomicLongArray slotSecond = new AtomicLongArray(SLOTS);
  private final AtomicLongArray slotCount = new AtomicLongArray(SLOTS);
  private final long startSecond = nowSecond();

  private static long nowSecond() {
    return System.nanoTime() / 1_000_000_000L;
  }

  /** Records {@code n} events now. */
  void mark(long n) {
    total.add(n);
    long second = nowSecond();
    int slot = (int) (second % SLOTS);
    long seen = slotSecond.get(slot);
    if (seen != second && slotSecond.compareAndSet(slot, seen, second)) {
      slotCount.set(slot, 0);
    }
    slotCount.addAndGet(slot, n);
  }

  /** Events recorded since creation. */
  long total() {
    return total.sum();
  }

  /** Events per second over the last complete seconds (at most {@value #WINDOW_SECONDS}). */
  double perSecond() {
    long now = nowSecond();
    long seconds = Math.min(WINDOW_SECONDS, now - startSecond);
    if (seconds <= 0) {
      return 0;
    }
    long sum = 0;
    for (int i = 0; i < SLOTS; i++) {
      long s = slotSecond.get(i);
      if (s < now && s >= now - seconds) {
        sum += slotCount.get(i);
      }
    }
    return (double) sum / seconds;
  }
}
