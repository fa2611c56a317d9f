package org.lucenenvm.cache;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Entries on the Java heap, as objects, never encoded, within a byte budget counted in their
 * encoded size ({@link EntryCodec#encodedSize}), the size they would take in the NVM tier. Empty
 * after a restart.
 */
final class DramEntryStorage implements EntryStorage {
  private record Stored(CacheEntry entry, int bytes) {}

  private final long capacityBytes;
  private final Map<QueryKey, Stored> entries = new HashMap<>();
  private long bytes;

  DramEntryStorage(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  @Override
  public CacheEntry get(QueryKey key) {
    Stored stored = entries.get(key);
    return stored == null ? null : stored.entry();
  }

  @Override
  public boolean put(CacheEntry entry, int size) {
    Stored old = entries.get(entry.key());
    long oldBytes = old == null ? 0 : old.bytes();
    if (bytes - oldBytes + size > capacityBytes) {
      return false;
    }
    entries.put(entry.key(), new Stored(entry, size));
    bytes += size - oldBytes;
    return true;
  }

  @Override
  public void remove(QueryKey key) {
    Stored old = entries.remove(key);
    if (old != null) {
      bytes -= old.bytes();
    }
  }

  @Override
  public Set<QueryKey> keys() {
    return Set.copyOf(entries.keySet());
  }

  @Override
  public long bytes() {
    return bytes;
  }

  @Override
  public long capacityBytes() {
    return capacityBytes;
  }

  @Override
  public void close() {
    entries.clear();
    bytes = 0;
  }
}
