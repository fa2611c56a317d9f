package org.lucenenvm.cache;

import java.util.List;

/**
 * Decides which keys stay resident in a cache of at most {@link #capacity()} entries. The cache
 * calls {@link #onHit} when it serves a resident key, and after a miss, if its {@link
 * AdmissionRule} admits the computed result, {@link #onInsert}, then drops the entries of the keys
 * returned. {@link #evictOne} frees room when the storage (not the entry count) is full, and {@link
 * #remove} forgets an invalidated key. Not thread-safe: the cache serializes calls.
 *
 * @param <K> the key type (equality and hash code define identity)
 */
public interface CachePolicy<K> {
  /** Creates a policy of {@code kind} for {@code capacity} entries. */
  static <K> CachePolicy<K> create(Kind kind, int capacity) {
    return switch (kind) {
      case LRU -> new LruPolicy<>(capacity);
      case DLIRS -> new DlirsPolicy<>(capacity);
    };
  }

  /** The replacement policies available by configuration. */
  enum Kind {
    /** Least recently used. */
    LRU,
    /** Dynamic LIRS (Li, 2018): LIRS with an adaptive split between LIR and resident HIR space. */
    DLIRS
  }

  /** Whether {@code key} is resident (its entry must be kept). */
  boolean isResident(K key);

  /** Records a hit on resident {@code key}. */
  void onHit(K key);

  /**
   * Makes {@code key} (not resident) resident and returns the resident keys evicted to stay within
   * capacity, oldest first; their entries must be dropped.
   */
  List<K> onInsert(K key);

  /** Evicts the key the policy would evict next and returns it, or null if none is resident. */
  K evictOne();

  /** Forgets {@code key} (resident or remembered), e.g. because its entry was invalidated. */
  void remove(K key);

  /** Number of resident keys. */
  int size();

  /** The most keys resident at once. */
  int capacity();
}
