package org.lucenenvm.cache;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last {@code capacity} distinct keys added, forgetting the least recently added first. Not
 * thread-safe: its owner serializes access.
 */
final class RecentKeys {
  private final Map<QueryKey, Boolean> keys;

  RecentKeys(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    }
    this.keys =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<QueryKey, Boolean> eldest) {
            return size() > capacity;
          }
        };
  }

  /** Remembers {@code key} as the most recent; returns whether it was new (not remembered). */
  boolean add(QueryKey key) {
    return keys.put(key, Boolean.TRUE) == null;
  }

  /** Forgets {@code key}, if remembered. */
  void forget(QueryKey key) {
    keys.remove(key);
  }
}
