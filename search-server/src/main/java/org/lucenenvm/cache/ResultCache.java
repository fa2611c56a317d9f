package org.lucenenvm.cache;

import java.io.Closeable;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * The result cache's store of entries: an {@link EntryStorage} (DRAM or NVM), a {@link
 * CachePolicy} over its keys, the inclusion threshold, and the counters the server reports. It
 * knows nothing of segments: the engine's search checks an entry against its snapshot and reports
 * the outcome ({@link #hit}, {@link #miss}, {@link #invalidate}, {@link #admit}). Thread-safe; one
 * lock serializes the policy and the storage.
 */
public final class ResultCache implements Closeable {
  private final EntryStorage storage;
  private final CachePolicy<QueryKey> policy;
  private final AdmissionRule admission;
  /** Single-term key to the disjunction keys whose entries hold that term's part. */
  private final Map<QueryKey, Set<QueryKey>> partHolders = new HashMap<>();
  /** Disjunction keys that missed recently, least recent first (see {@link #miss}). */
  private final RecentKeys recentDisjunctionMisses;

  private final LongAdder hits = new LongAdder();
  private final LongAdder partialHits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder invalidations = new LongAdder();
  private final LongAdder rejected = new LongAdder();

  private ResultCache(EntryStorage storage, ResultCacheSettings settings) {
    this.storage = storage;
    this.policy = CachePolicy.create(settings.policy(), settings.maxEntries());
    this.admission = settings.admission();
    this.recentDisjunctionMisses = new RecentKeys(settings.maxEntries());
    for (QueryKey key : storage.keys()) {
      CacheEntry entry = storage.get(key);
      for (QueryKey victim :
          policy.onInsert(key, entry.computeNanos(), EntryCodec.encode(entry).length)) {
        drop(victim);
      }
      indexParts(key, entry);
    }
  }

  /** A cache on the Java heap. */
  public static ResultCache inDram(ResultCacheSettings settings) {
    return new ResultCache(new DramEntryStorage(settings.bytes()), settings);
  }

  /**
   * A cache in {@code region} (of an NVM pool, made durable by {@code persister}): recovers the
   * entries a previous cache left there (whole entries only; a corrupt region is rebuilt empty with
   * a warning). {@code release} is run on close.
   */
  public static ResultCache inRegion(
      MemorySegment region, Persister persister, ResultCacheSettings settings, Runnable release) {
    EntryStore store = EntryStore.open(region, settings.maxEntries(), persister);
    return new ResultCache(new NvmEntryStorage(store, release), settings);
  }

  /** The entry of {@code key}, or null; counts nothing (see {@link #hit} and {@link #miss}). */
  public synchronized CacheEntry get(QueryKey key) {
    return policy.isResident(key) ? storage.get(key) : null;
  }

  /**
   * The resident entries holding a term part that answers the single-term key {@code single}
   * (Partial Type I), or an empty list.
   */
  public synchronized List<CacheEntry> partHolders(QueryKey single) {
    Set<QueryKey> holders = partHolders.get(single);
    if (holders == null) {
      return List.of();
    }
    return holders.stream().map(storage::get).filter(Objects::nonNull).toList();
  }

  /** Records that {@code key}'s entry answered a query, {@code partial}ly for a Partial Type I. */
  public synchronized void hit(QueryKey key, boolean partial) {
    if (policy.isResident(key)) {
      policy.onHit(key);
    }
    (partial ? partialHits : hits).increment();
  }

  /**
   * Records that the cache could not answer {@code key}; returns whether {@code key} missed before,
   * among the last {@code maxEntries} disjunction keys that missed (a single-term or conjunctive
   * key returns false and is not remembered).
   */
  public boolean miss(QueryKey key) {
    misses.increment();
    if (key.operator() != QueryKey.Operator.OR) {
      return false;
    }
    synchronized (this) {
      return !recentDisjunctionMisses.add(key);
    }
  }

  /** Drops {@code key}'s entry because it no longer holds for the current segments. */
  public synchronized void invalidate(QueryKey key) {
    if (policy.isResident(key)) {
      policy.remove(key);
      drop(key);
      invalidations.increment();
    }
  }

  /** Drops every entry {@code stillValid} refuses (on open, against the reopened segments). */
  public synchronized void retain(Predicate<CacheEntry> stillValid) {
    for (QueryKey key : storage.keys()) {
      if (!stillValid.test(storage.get(key))) {
        invalidate(key);
      }
    }
  }

  /**
   * Caches {@code entry} if the inclusion threshold admits it (by its {@link
   * CacheEntry#computeNanos}), replacing the entry of its key; evicts what the policy chooses, and more while the
   * storage is full. Returns whether it was cached; a storage that cannot persist (an I/O error of
   * the NVM region) leaves the result uncached, with a warning, and never fails the query.
   */
  public boolean admit(CacheEntry entry) {
    // the rule reads only the entry: decided (and encoded) outside the lock
    int bytes = EntryCodec.encode(entry).length;
    if (!admission.admits(entry.computeNanos(), bytes)) {
      rejected.increment();
      return false;
    }
    return store(entry, bytes);
  }

  private synchronized boolean store(CacheEntry entry, int bytes) {
    QueryKey key = entry.key();
    if (policy.isResident(key)) {
      policy.remove(key);
      drop(key);
    }
    for (QueryKey victim : policy.onInsert(key, entry.computeNanos(), bytes)) {
      drop(victim);
      evictions.increment();
    }
    try {
      while (!storage.put(entry)) {
        QueryKey victim = policy.evictOne();
        if (victim == null || victim.equals(key)) {
          policy.remove(key);
          rejected.increment();
          return false; // larger than the whole storage
        }
        drop(victim);
        evictions.increment();
      }
    } catch (UncheckedIOException e) {
      // the region could not be made durable: the query still gets its answer, uncached
      policy.remove(key);
      rejected.increment();
      System.getLogger(ResultCache.class.getName())
          .log(System.Logger.Level.WARNING, "result not cached: " + e.getMessage(), e);
      return false;
    }
    indexParts(key, entry);
    return true;
  }

  /** The counters and sizes now. */
  public synchronized ResultCacheStats stats() {
    return new ResultCacheStats(
        hits.sum(),
        partialHits.sum(),
        misses.sum(),
        evictions.sum(),
        invalidations.sum(),
        rejected.sum(),
        policy.size(),
        storage.bytes(),
        storage.capacityBytes());
  }

  @Override
  public synchronized void close() {
    storage.close();
  }

  private void drop(QueryKey key) {
    CacheEntry entry = storage.get(key);
    if (entry != null && !entry.termParts().isEmpty()) {
      for (int i = 0; i < key.terms().size(); i++) {
        Set<QueryKey> holders = partHolders.get(key.termKey(i));
        if (holders != null) {
          holders.remove(key);
          if (holders.isEmpty()) {
            partHolders.remove(key.termKey(i));
          }
        }
      }
    }
    storage.remove(key);
  }

  private void indexParts(QueryKey key, CacheEntry entry) {
    if (entry != null && !entry.termParts().isEmpty()) {
      for (int i = 0; i < key.terms().size(); i++) {
        partHolders.computeIfAbsent(key.termKey(i), k -> new HashSet<>()).add(key);
      }
    }
  }
}
