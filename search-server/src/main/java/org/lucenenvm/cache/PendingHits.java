package org.lucenenvm.cache;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Hits recorded without the cache's write lock, for the policy to see at the next drain (before
 * any insert, invalidation or eviction, so a single thread sees the policy in the order it acted).
 * Bounded: beyond {@link #CAPACITY} pending hits more are dropped (their policy update only; the
 * hit counters count them), as a lookup must never wait for room. Thread-safe.
 */
final class PendingHits {
  /** The most hits kept pending. */
  static final int CAPACITY = 4096;

  /** Pending hits beyond which a lookup tries to drain them itself. */
  static final int DRAIN_THRESHOLD = 256;

  private final ConcurrentLinkedQueue<QueryKey> keys = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();

  /** Records a hit on {@code key}; returns whether enough are pending to be worth draining. */
  boolean add(QueryKey key) {
    int pending = size.incrementAndGet();
    if (pending > CAPACITY) {
      size.decrementAndGet();
      return true;
    }
    keys.add(key);
    return pending >= DRAIN_THRESHOLD;
  }

  /** Hands every pending hit to {@code policyUpdate}, oldest first. */
  void drainTo(Consumer<QueryKey> policyUpdate) {
    QueryKey key;
    while ((key = keys.poll()) != null) {
      size.decrementAndGet();
      policyUpdate.accept(key);
    }
  }
}
