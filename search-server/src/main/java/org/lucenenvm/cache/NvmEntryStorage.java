package org.lucenenvm.cache;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Entries in an {@link EntryStore} (a TLSF-managed region of the NVM pool, crash-safe), with the
 * key-to-slot index on the heap, rebuilt from the store on open. Entries survive a restart; the
 * cache decides whether they are still valid.
 */
final class NvmEntryStorage implements EntryStorage {
  private final EntryStore store;
  private final Runnable release;
  private final Map<QueryKey, Integer> slots = new HashMap<>();

  /** Storage over {@code store}; {@code release} frees its region on close. */
  NvmEntryStorage(EntryStore store, Runnable release) {
    this.store = store;
    this.release = release;
    store.forEach(
        (slot, entry) -> {
          Integer duplicate = slots.put(entry.key(), slot);
          if (duplicate != null) {
            store.remove(duplicate); // a crash between publishing a new entry and dropping its old one
          }
        });
  }

  @Override
  public CacheEntry get(QueryKey key) {
    Integer slot = slots.get(key);
    return slot == null ? null : store.get(slot);
  }

  @Override
  public boolean put(CacheEntry entry, int bytes) {
    int slot = store.put(entry, bytes);
    if (slot == EntryStore.NO_SPACE) {
      return false;
    }
    Integer old = slots.put(entry.key(), slot);
    if (old != null) {
      store.remove(old);
    }
    return true;
  }

  @Override
  public void remove(QueryKey key) {
    Integer slot = slots.remove(key);
    if (slot != null) {
      store.remove(slot);
    }
  }

  @Override
  public Set<QueryKey> keys() {
    return Set.copyOf(slots.keySet());
  }

  @Override
  public long bytes() {
    return store.capacityBytes() - store.freeBytes();
  }

  @Override
  public long capacityBytes() {
    return store.capacityBytes();
  }

  @Override
  public void close() {
    slots.clear();
    release.run();
  }
}
