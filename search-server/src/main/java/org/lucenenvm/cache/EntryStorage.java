package org.lucenenvm.cache;

import java.io.Closeable;
import java.util.Set;

/**
 * Where a {@link ResultCache} keeps its entries, by key: {@link DramEntryStorage} or {@link
 * NvmEntryStorage}. Not thread-safe: the cache serializes changes; {@link #get} and {@link
 * #keys} may run concurrently with each other (the cache's lookups), never with a change.
 */
interface EntryStorage extends Closeable {
  /** The entry of {@code key}, or null. */
  CacheEntry get(QueryKey key);

  /**
   * Stores {@code entry}, whose {@link EntryCodec#encodedSize} is {@code bytes}, replacing the
   * entry of its key if any; returns false, storing nothing, when there is no room (the caller
   * evicts and retries).
   */
  boolean put(CacheEntry entry, int bytes);

  /** Drops the entry of {@code key}, if any. */
  void remove(QueryKey key);

  /** The keys of the stored entries. */
  Set<QueryKey> keys();

  /** Bytes the stored entries take. */
  long bytes();

  /** Bytes available for entries in all. */
  long capacityBytes();

  @Override
  void close();
}
