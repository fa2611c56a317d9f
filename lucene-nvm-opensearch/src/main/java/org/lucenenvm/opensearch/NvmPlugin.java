package org.lucenenvm.opensearch;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.opensearch.cluster.routing.allocation.decider.AllocationDecider;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.codec.AdditionalCodecs;
import org.opensearch.plugins.ClusterPlugin;
import org.opensearch.plugins.EnginePlugin;
import org.opensearch.plugins.IndexStorePlugin;
import org.opensearch.plugins.Plugin;

/**
 * The lucene-nvm OpenSearch plugin. It adds:
 *
 * <ul>
 *   <li>the codec {@code "index.codec": "nvm"} ({@link Nvm105Codec} over the index's default
 *       codec);
 *   <li>the store type {@code "index.store.type": "nvm"} ({@link NvmDirectoryFactory}) and its
 *       settings ({@link NvmStoreSettings});
 *   <li>the node attribute {@code node.attr.lucene_nvm} and an allocation decider that keeps
 *       {@code nvm}-store shards on nodes that have the plugin ({@link
 *       NvmStoreAllocationDecider}).
 * </ul>
 */
public final class NvmPlugin extends Plugin implements EnginePlugin, IndexStorePlugin, ClusterPlugin {
  private static final String NODE_ATTRIBUTE_KEY = "node.attr." + NvmStoreAllocationDecider.NODE_ATTRIBUTE;

  @Override
  public List<Setting<?>> getSettings() {
    return NvmStoreSettings.ALL;
  }

  @Override
  public Settings additionalSettings() {
    String version = NvmPlugin.class.getPackage().getImplementationVersion();
    return Settings.builder().put(NODE_ATTRIBUTE_KEY, version == null ? "dev" : version).build();
  }

  @Override
  public Map<String, DirectoryFactory> getDirectoryFactories() {
    return Map.of(NvmStoreSettings.STORE_TYPE, new NvmDirectoryFactory());
  }

  @Override
  public Optional<AdditionalCodecs> getAdditionalCodecs(IndexSettings indexSettings) {
    return Optional.of(
        (mapperService, settings, defaultCodec) ->
            Map.of(Nvm105Codec.ALIAS, new Nvm105Codec(defaultCodec.get())));
  }

  @Override
  public Collection<AllocationDecider> createAllocationDeciders(Settings settings, ClusterSettings clusterSettings) {
    return List.of(new NvmStoreAllocationDecider());
  }
}
