package org.lucenenvm.bench;

import java.util.Arrays;
import java.util.Locale;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.server.ByteSize;
import org.lucenenvm.server.TimeSpan;

/**
 * The result cache of a WRT run of the engine ({@code --rt-cache}): {@code off}, or {@code
 * <dram|nvm>-<lru|dlirs|gdsf>-<size>[-<min compute>][-paired]}, e.g. {@code dram-lru-64m} or
 * {@code nvm-dlirs-128m-200us} (the inclusion threshold; default 0, every result is cached).
 * {@code -paired} also runs every timed query without the cache, on the same snapshot, right
 * before or after its cached run ({@link PairedCacheTime}).
 *
 * @param spec the text as given (part of the row's label)
 * @param settings the engine's cache settings
 * @param paired whether each timed query also runs uncached, for a speed-up measured in one JVM
 */
public record RtCache(String spec, ResultCacheSettings settings, boolean paired) {
  /** No cache. */
  public static final RtCache OFF = new RtCache("off", ResultCacheSettings.DISABLED, false);

  private static final String PAIRED = "paired";

  /** Parses a spec; an error names the expected form. */
  public static RtCache parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("off")) {
      return OFF;
    }
    String[] parts = t.split("-");
    boolean paired = parts.length > 3 && parts[parts.length - 1].equals(PAIRED);
    if (paired) {
      parts = Arrays.copyOf(parts, parts.length - 1);
    }
    if (parts.length < 3 || parts.length > 4) {
      throw new IllegalArgumentException(
          "bad cache '" + text + "': use off or <dram|nvm>-<lru|dlirs|gdsf>-<size>[-<min compute>][-paired], e.g. dram-lru-64m");
    }
    CachePolicy.Kind policy;
    try {
      policy = CachePolicy.Kind.parse(parts[1]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad cache '" + text + "': " + e.getMessage());
    }
    long minCompute = parts.length == 4 ? TimeSpan.parse(parts[3]).toNanos() : 0;
    return new RtCache(
        t, ResultCacheSettings.of(ResultCacheSettings.Tier.parse(parts[0]), ByteSize.parse(parts[2]), policy, minCompute), paired);
  }

  /** {@code -cache-<spec>}, or nothing when off. */
  String labelSuffix() {
    return settings.enabled() ? "-cache-" + spec : "";
  }
}
