package org.lucenenvm.opensearch;

import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.cluster.routing.RoutingNode;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.cluster.routing.allocation.RoutingAllocation;
import org.opensearch.cluster.routing.allocation.decider.AllocationDecider;
import org.opensearch.cluster.routing.allocation.decider.Decision;
import org.opensearch.index.IndexModule;

/**
 * Keeps shards of {@code nvm}-store indices off nodes without this plugin. Every node with the
 * plugin carries the node attribute {@value #NODE_ATTRIBUTE}; a node without it could not open
 * the shard, so allocating there would only fail (and, for a replica, retry and fail again). The
 * decision's explanation names the node, the index and the setting.
 */
public final class NvmStoreAllocationDecider extends AllocationDecider {
  /** The node attribute ({@code node.attr.lucene_nvm}) that marks a node with the plugin. */
  public static final String NODE_ATTRIBUTE = "lucene_nvm";
  static final String NAME = "lucene_nvm_store";

  @Override
  public Decision canAllocate(ShardRouting shard, RoutingNode node, RoutingAllocation allocation) {
    return decide(allocation.metadata().getIndexSafe(shard.index()), node.node(), allocation);
  }

  @Override
  public Decision canRemain(ShardRouting shard, RoutingNode node, RoutingAllocation allocation) {
    return decide(allocation.metadata().getIndexSafe(shard.index()), node.node(), allocation);
  }

  @Override
  public Decision canAllocate(IndexMetadata index, RoutingNode node, RoutingAllocation allocation) {
    return decide(index, node.node(), allocation);
  }

  private static Decision decide(IndexMetadata index, DiscoveryNode node, RoutingAllocation allocation) {
    String storeType = IndexModule.INDEX_STORE_TYPE_SETTING.get(index.getSettings());
    if (!NvmStoreSettings.STORE_TYPE.equals(storeType)) {
      return allocation.decision(Decision.YES, NAME, "index does not use the nvm store");
    }
    if (node.getAttributes().containsKey(NODE_ATTRIBUTE)) {
      return allocation.decision(Decision.YES, NAME, "node [%s] has the lucene-nvm plugin", node.getName());
    }
    return allocation.decision(
        Decision.NO,
        NAME,
        "index [%s] has [index.store.type: nvm] but node [%s] does not have the lucene-nvm plugin installed",
        index.getIndex().getName(),
        node.getName());
  }
}
