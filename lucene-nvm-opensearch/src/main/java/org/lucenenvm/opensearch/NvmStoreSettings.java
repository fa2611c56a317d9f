package org.lucenenvm.opensearch;

import java.nio.file.Path;
import java.util.List;
import org.lucenenvm.store.FfmPoolBackend;
import org.lucenenvm.store.LlplPoolBackend;
import org.lucenenvm.store.PoolBackend;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Setting.Property;
import org.opensearch.core.common.unit.ByteSizeUnit;
import org.opensearch.core.common.unit.ByteSizeValue;

/**
 * The index settings of the {@code nvm} store type. All are fixed while the index is open; {@link
 * #POOL_SIZE} may be raised on a closed index (the pool is grown when the shard opens again).
 */
public final class NvmStoreSettings {

  /** The value of {@code index.store.type} that selects the NVM store. */
  public static final String STORE_TYPE = "nvm";

  /** Bytes of each shard's pool. A new pool is created (and zero-filled) at this size. */
  public static final Setting<ByteSizeValue> POOL_SIZE =
      Setting.byteSizeSetting(
          "index.store.nvm.pool.size",
          new ByteSizeValue(512, ByteSizeUnit.MB),
          new ByteSizeValue(8, ByteSizeUnit.MB),
          new ByteSizeValue(1, ByteSizeUnit.TB),
          Property.IndexScope);

  /** Where each shard's pool file lives, relative to the shard's data directory. */
  public static final Setting<String> POOL_PATH =
      Setting.simpleString(
          "index.store.nvm.pool.path",
          "nvm/index.pool",
          NvmStoreSettings::validatePoolPath,
          Property.IndexScope);

  /** How the pool is mapped: {@code ffm} (plain Java) or {@code llpl} (PMDK, needs libpmemobj). */
  public static final Setting<String> POOL_BACKEND =
      Setting.simpleString(
          "index.store.nvm.pool.backend", "ffm", NvmStoreSettings::validateBackend, Property.IndexScope);

  /** Every setting of the store, for {@code Plugin#getSettings}. */
  public static final List<Setting<?>> ALL = List.of(POOL_SIZE, POOL_PATH, POOL_BACKEND);

  private NvmStoreSettings() {}

  /** The backend a {@link #POOL_BACKEND} value names. */
  static PoolBackend backend(String name) {
    return switch (name) {
      case "ffm" -> new FfmPoolBackend();
      case "llpl" -> {
        String unavailable = LlplPoolBackend.unavailableReason();
        if (unavailable != null) {
          throw new IllegalArgumentException(
              "[" + POOL_BACKEND.getKey() + "] is [llpl] but llpl cannot run here: " + unavailable);
        }
        yield new LlplPoolBackend();
      }
      default -> throw new IllegalArgumentException(backendError(name));
    };
  }

  private static void validateBackend(String name) {
    if (!name.equals("ffm") && !name.equals("llpl")) {
      throw new IllegalArgumentException(backendError(name));
    }
  }

  private static String backendError(String name) {
    return "unknown value [" + name + "] for [" + POOL_BACKEND.getKey() + "]: must be ffm or llpl";
  }

  private static void validatePoolPath(String value) {
    Path path = Path.of(value).normalize();
    if (value.isEmpty() || path.isAbsolute() || path.startsWith("..") || path.getNameCount() == 0) {
      throw new IllegalArgumentException(
          "[" + POOL_PATH.getKey() + "] must be a relative path inside the shard directory, got [" + value + "]");
    }
    String top = path.getName(0).toString();
    if (top.equals("index") || top.equals("translog") || top.equals("_state")) {
      throw new IllegalArgumentException(
          "[" + POOL_PATH.getKey() + "] must not be under the shard's [" + top
              + "] directory, which OpenSearch manages itself, got [" + value + "]");
    }
  }
}
