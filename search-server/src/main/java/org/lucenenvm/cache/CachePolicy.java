package org.lucenenvm.cache;

import java.util.List;
import java.util.Locale;

/**
 * Decides which keys stay resident in a cache of at most {@link #capacity()} entries. The cache
 * calls {@link #onHit} when it serves a resident key, and after a miss, if its {@link
 * AdmissionRule} admits the computed result, {@link #onInsert}, then drops the entries of the keys
 * returned. {@link #evictOne} frees room when the storage (not the entry count) is full, and {@link
 * #remove} forgets an invalidated key. Not thread-safe: the cache serializes changes; {@link
 * #isResident} and {@link #size} may run concurrently with each other (the cache's lookups), never
 * with a change.
 *
 * @param <K> the key type (equality and hash code define identity)
 */
public interface CachePolicy<K> {
  /** Creates a policy of {@code kind} for {@code capacity} entries. */
  static <K> CachePolicy<K> create(Kind kind, int capacity) {
    return switch (kind) {
      case LRU -> new LruPolicy<>(capacity);
      case DLIRS -> new DlirsPolicy<>(capacity);
      case GDSF -> new GdsfPolicy<>(capacity);
    };
  }

  /** The replacement policies available by configuration. */
  enum Kind {
    /** Least recently used. */
    LRU,
    /** Dynamic LIRS (Li, 2018): LIRS with an adaptive split between LIR and resident HIR space. */
    DLIRS,
    /**
     * GreedyDual-Size-Frequency (Cherkasova, 1998): keeps the entries whose hits save the most
     * compute time per byte.
     */
    GDSF;

    /** The policy named {@code name} (case-insensitive), or an error naming the choices. */
    public static Kind parse(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "cache policy must be lru, dlirs or gdsf, got '" + name + "'");
      }
    }
  }

  /** Whether {@code key} is resident (its entry must be kept). */
  boolean isResident(K key);

  /** Records a hit on resident {@code key}. */
  void onHit(K key);

  /**
   * Makes {@code key} (not resident) resident and returns the resident keys evicted to stay within
   * capacity, oldest first; their entries must be dropped. {@code computeNanos} is what its result
   * took to compute (what a hit saves) and {@code bytes} what its entry takes: a cost-aware policy
   * ({@link GdsfPolicy}) weighs them, the others ignore them.
   */
  List<K> onInsert(K key, long computeNanos, long bytes);

  /** Evicts the key the policy would evict next and returns it, or null if none is resident. */
  K evictOne();

  /** Forgets {@code key} (resident or remembered), e.g. because its entry was invalidated. */
  void remove(K key);

  /** Number of resident keys. */
  int size();

  /** The most keys resident at once. */
  int capacity();
}
