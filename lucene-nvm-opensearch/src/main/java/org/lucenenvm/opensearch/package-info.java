/**
 * The OpenSearch plugin, {@link org.lucenenvm.opensearch.NvmPlugin}: the codec {@code
 * "index.codec": "nvm"} ({@link org.lucenenvm.opensearch.Nvm105Codec}, the index's codec with
 * {@link org.lucenenvm.codec.NvmPostingsFormat} postings), the store type {@code
 * "index.store.type": "nvm"} ({@link org.lucenenvm.opensearch.NvmDirectoryFactory}, a shard's files
 * in an NVM pool through {@link org.lucenenvm.opensearch.NvmShardDirectory}) with its settings
 * ({@link org.lucenenvm.opensearch.NvmStoreSettings}), and an allocation decider ({@link
 * org.lucenenvm.opensearch.NvmStoreAllocationDecider}) that keeps {@code nvm}-store shards on
 * nodes with the plugin. {@link org.lucenenvm.opensearch.PoolFullReporter} names the index, shard,
 * node and setting when a pool runs out of room.
 */
package org.lucenenvm.opensearch;
