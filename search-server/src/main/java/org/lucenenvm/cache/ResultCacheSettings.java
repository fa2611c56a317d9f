package org.lucenenvm.cache;

import java.util.Locale;
import java.util.Objects;

/**
 * Settings of the result cache.
 *
 * @param enabled whether queries use a cache at all
 * @param tier where entries live
 * @param bytes the storage for entries (the NVM tier pre-allocates a region of this size)
 * @param maxEntries the most entries resident at once (the policy's capacity, and the NVM tier's
 *     slot count)
 * @param policy the replacement policy
 * @param minComputeNanos the inclusion threshold: results computed faster than this are not cached
 */
public record ResultCacheSettings(
    boolean enabled,
    Tier tier,
    long bytes,
    int maxEntries,
    CachePolicy.Kind policy,
    long minComputeNanos) {
  /** No cache. */
  public static final ResultCacheSettings DISABLED =
      new ResultCacheSettings(false, Tier.DRAM, 0, 0, CachePolicy.Kind.GDSF, 0);

  /** Average bytes one entry is assumed to take when only a byte size is given. */
  public static final int ASSUMED_ENTRY_BYTES = 512;

  /** Where entries live. */
  public enum Tier {
    /** On the Java heap; empty after a restart. */
    DRAM,
    /** In a region of the engine's NVM directory; still warm after a graceful restart. */
    NVM;

    /** The tier named {@code name} (case-insensitive), or an error naming the choices. */
    public static Tier parse(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("cache tier must be dram or nvm, got '" + name + "'");
      }
    }
  }

  /** Validates an enabled cache's settings. */
  public ResultCacheSettings {
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(policy, "policy");
    if (enabled) {
      if (bytes < 4096) {
        throw new IllegalArgumentException("cache size must be >= 4096 bytes, got " + bytes);
      }
      int minEntries = policy == CachePolicy.Kind.DLIRS ? 2 : 1;
      if (maxEntries < minEntries) {
        throw new IllegalArgumentException(
            "cache must hold >= " + minEntries + " entries with " + policy + ", got " + maxEntries);
      }
    }
    if (minComputeNanos < 0) {
      throw new IllegalArgumentException(
          "inclusion threshold must be >= 0 ns, got " + minComputeNanos);
    }
  }

  /**
   * An enabled cache of {@code bytes} holding at most {@code bytes / }{@value
   * #ASSUMED_ENTRY_BYTES} entries.
   */
  public static ResultCacheSettings of(
      Tier tier, long bytes, CachePolicy.Kind policy, long minComputeNanos) {
    long entries = Math.max(2, bytes / ASSUMED_ENTRY_BYTES);
    return new ResultCacheSettings(
        true, tier, bytes, (int) Math.min(1 << 24, entries), policy, minComputeNanos);
  }

  /** The admission rule of the inclusion threshold. */
  public AdmissionRule admission() {
    return minComputeNanos == 0 ? AdmissionRule.ALWAYS : AdmissionRule.minComputeNanos(minComputeNanos);
  }
}
