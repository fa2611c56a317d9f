package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/** Least recently used: a hit moves the key to the most recent end; eviction takes the oldest. */
public final class LruPolicy<K> implements CachePolicy<K> {
  private final int capacity;
  private final LinkedHashSet<K> recency = new LinkedHashSet<>();

  /** An LRU policy for {@code capacity} (at least 1) entries. */
  public LruPolicy(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("LRU capacity must be >= 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public boolean isResident(K key) {
    return recency.contains(key);
  }

  @Override
  public void onHit(K key) {
    if (!recency.remove(key)) {
      throw new IllegalArgumentException("hit on a key that is not resident: " + key);
    }
    recency.addLast(key);
  }

  @Override
  public List<K> onInsert(K key, long computeNanos, long bytes) {
    if (recency.contains(key)) {
      throw new IllegalArgumentException("key is already resident: " + key);
    }
    List<K> evicted = new ArrayList<>();
    while (recency.size() >= capacity) {
      evicted.add(evictOne());
    }
    recency.addLast(key);
    return evicted;
  }

  @Override
  public K evictOne() {
    Iterator<K> oldest = recency.iterator();
    if (!oldest.hasNext()) {
      return null;
    }
    K key = oldest.next();
    oldest.remove();
    return key;
  }

  @Override
  public void remove(K key) {
    recency.remove(key);
  }

  @Override
  public int size() {
    return recency.size();
  }

  @Override
  public int capacity() {
    return capacity;
  }
}
