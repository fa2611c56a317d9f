package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.store.Directory;
import org.lucenenvm.cache.Persister;
import org.lucenenvm.cache.ResultCache;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmRegion;

/**
 * Opens an engine's {@link ResultCache} as its settings say: on the heap, or in the region
 * {@value #REGION} of the engine's {@link NvmDirectory} (created at the configured size; a region
 * of another size is replaced by an empty one).
 */
final class ResultCaches {
  static final String REGION = "rt.cache";

  private ResultCaches() {}

  /** The cache of {@code settings} for the engine in {@code nvm}, or null when disabled. */
  static ResultCache open(Directory nvm, ResultCacheSettings settings) throws IOException {
    if (!settings.enabled()) {
      return null;
    }
    if (settings.tier() == ResultCacheSettings.Tier.DRAM) {
      return ResultCache.inDram(settings);
    }
    if (!(nvm instanceof NvmDirectory dir)) {
      throw new IllegalArgumentException(
          "the NVM cache tier needs an NvmDirectory, the engine's directory is " + nvm);
    }
    NvmRegion region = region(dir, settings.bytes());
    try {
      return ResultCache.inRegion(
          region.segment(), Persister.forRegion(region), settings, region::close);
    } catch (RuntimeException e) {
      region.close();
      throw e;
    }
  }

  private static NvmRegion region(NvmDirectory dir, long bytes) throws IOException {
    if (Arrays.asList(dir.listAll()).contains(REGION)) {
      NvmRegion existing = dir.openRegion(REGION);
      if (existing.length() == bytes) {
        return existing;
      }
      existing.close();
      dir.deleteFile(REGION);
    }
    return dir.createRegion(REGION, bytes);
  }
}
