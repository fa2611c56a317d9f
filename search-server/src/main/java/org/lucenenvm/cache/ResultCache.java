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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * The result cache's store of entries: an {@link EntryStorage} (DRAM or NVM), a {@link
 * CachePolicy} over its keys, the inclusion threshold, and the counters the server reports. It
 * knows nothing of segments: the engine's search checks an entry against its snapshot and reports
 * the outcome ({@link #hit}, {@link #miss}, {@link #invalidate}, {@link #admit}).
 *
 * <p>Thread-safe. Lookups ({@link #get}, {@link #partHolders}) share a read lock and run in
 * parallel; a {@link #hit} takes no lock: it is queued ({@link PendingHits}) and the policy sees it
 * at the next change, which takes the write lock (admission, invalidation, eviction) and applies
 * the queued hits first, or when enough are queued and the write lock is free. The storage is only
 * written under the write lock, so a lookup never reads an entry being written or freed (the NVM
 * tier's crash and restart guarantees are the {@link EntryStore}'s and do not depend on it).
 *
 * <p>Beside each resident entry the cache may keep the {@link TailResult} of the query's last tail
 * search ({@link #tail}, {@link #keepTail}), on the heap whatever the tier: at most one per entry,
 * dropped with it, and not counted in {@link ResultCacheStats#bytes()} (k hits and one small
 * record per tail segment each).
 */
public final class ResultCache implements Closeable {
  private final EntryStorage storage;
  private final CachePolicy<QueryKey> policy;
  private final AdmissionRule admission;
  /** Single-term key to the disjunction keys whose entries hold that term's part. */
  private final Map<QueryKey, Set<QueryKey>> partHolders = new HashMap<>();
  /** The last tail search of resident keys (only while their entry is resident). */
  private final Map<QueryKey, TailResult> tails = new ConcurrentHashMap<>();
  /** Disjunction keys that missed recently, least recent first (see {@link #miss}). */
  private final RecentKeys recentDisjunctionMisses;

  /** Readers: lookups. Writer: every change of the policy, the storage or the part index. */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final PendingHits pendingHits = new PendingHits();

  private final LongAdder hits = new LongAdder();
  private final LongAdder partialHits = new LongAdder();
  private final LongAdder tailResumes = new LongAdder();
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
          policy.onInsert(key, entry.computeNanos(), EntryCodec.encodedSize(entry))) {
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
  public CacheEntry get(QueryKey key) {
    lock.readLock().lock();
    try {
      return policy.isResident(key) ? storage.get(key) : null;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The resident entries holding a term part that answers the single-term key {@code single}
   * (Partial Type I), or an empty list.
   */
  public List<CacheEntry> partHolders(QueryKey single) {
    lock.readLock().lock();
    try {
      Set<QueryKey> holders = partHolders.get(single);
      if (holders == null) {
        return List.of();
      }
      return holders.stream().map(storage::get).filter(Objects::nonNull).toList();
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Records that {@code key}'s entry answered a query, {@code partial}ly for a Partial Type I;
   * the policy sees the hit before the cache next changes.
   */
  public void hit(QueryKey key, boolean partial) {
    (partial ? partialHits : hits).increment();
    if (pendingHits.add(key) && lock.writeLock().tryLock()) {
      try {
        applyPendingHits();
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  /** The tail result kept for {@code key}, or null; the engine checks it against its snapshot. */
  public TailResult tail(QueryKey key) {
    return tails.get(key);
  }

  /**
   * Keeps {@code tail} as {@code key}'s tail result, replacing the one before, if {@code key}
   * has a resident entry; dropping the entry drops it. A tail result computed while the entry was
   * replaced may be kept with the new entry: it does not depend on the entry (the engine checks
   * it against each snapshot), so that costs at most a full tail search.
   */
  public void keepTail(QueryKey key, TailResult tail) {
    lock.readLock().lock();
    try {
      if (policy.isResident(key)) {
        tails.put(key, tail);
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Records that a hit's tail search resumed from a tail result instead of searching it all. */
  public void tailResumed() {
    tailResumes.increment();
  }

  /**
   * Records that the cache could not answer {@code key}; returns whether {@code key} missed before,
   * among the last {@code maxEntries} disjunction keys that missed, and its entry was not evicted
   * since (a single-term or conjunctive key returns false and is not remembered). The engine
   * computes a disjunction's term parts (Partial Type I) only then: for a query that repeats and
   * whose entry lasts until its segments change. A cache too small to keep the entry would pay
   * one more search per term on every miss for parts it rarely serves.
   */
  public boolean miss(QueryKey key) {
    misses.increment();
    if (key.operator() != QueryKey.Operator.OR) {
      return false;
    }
    synchronized (recentDisjunctionMisses) {
      return !recentDisjunctionMisses.add(key);
    }
  }

  /**
   * Drops {@code key}'s entry (it no longer holds for the current segments, or is unwanted);
   * returns whether it was resident.
   */
  public boolean invalidate(QueryKey key) {
    lock.writeLock().lock();
    try {
      applyPendingHits();
      return invalidateLocked(key);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Drops every entry {@code stillValid} refuses (on open, against the reopened segments). */
  public void retain(Predicate<CacheEntry> stillValid) {
    lock.writeLock().lock();
    try {
      applyPendingHits();
      for (QueryKey key : storage.keys()) {
        if (!stillValid.test(storage.get(key))) {
          invalidateLocked(key);
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  private boolean invalidateLocked(QueryKey key) {
    if (!policy.isResident(key)) {
      return false;
    }
    policy.remove(key);
    drop(key);
    invalidations.increment();
    return true;
  }

  /**
   * Caches {@code entry} if the inclusion threshold admits it (by its {@link
   * CacheEntry#computeNanos}), replacing the entry of its key; evicts what the policy chooses, and more while the
   * storage is full. Returns whether it was cached; a storage that cannot persist (an I/O error of
   * the NVM region) leaves the result uncached, with a warning, and never fails the query.
   */
  public boolean admit(CacheEntry entry) {
    // the rule reads only the entry: decided outside the lock, on the entry's size (not encoded:
    // only the NVM tier encodes it, once, as it stores it)
    int bytes = EntryCodec.encodedSize(entry);
    if (!admission.admits(entry.computeNanos(), bytes)) {
      rejected.increment();
      return false;
    }
    return store(entry, bytes);
  }

  private boolean store(CacheEntry entry, int bytes) {
    lock.writeLock().lock();
    try {
      applyPendingHits();
      return storeLocked(entry, bytes);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private boolean storeLocked(CacheEntry entry, int bytes) {
    QueryKey key = entry.key();
    if (policy.isResident(key)) {
      policy.remove(key);
      drop(key);
    }
    for (QueryKey victim : policy.onInsert(key, entry.computeNanos(), bytes)) {
      evict(victim);
    }
    try {
      while (!storage.put(entry, bytes)) {
        QueryKey victim = policy.evictOne();
        if (victim == null || victim.equals(key)) {
          policy.remove(key);
          rejected.increment();
          return false; // larger than the whole storage
        }
        evict(victim);
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
  public ResultCacheStats stats() {
    lock.readLock().lock();
    try {
      return new ResultCacheStats(
          hits.sum(),
          partialHits.sum(),
          tailResumes.sum(),
          misses.sum(),
          evictions.sum(),
          invalidations.sum(),
          rejected.sum(),
          policy.size(),
          storage.bytes(),
          storage.capacityBytes());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      storage.close();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Drops {@code victim}'s entry for room and forgets that it missed: a disjunction that comes back
   * after an eviction counts as a first miss again (see {@link #miss}).
   */
  private void evict(QueryKey victim) {
    drop(victim);
    evictions.increment();
    synchronized (recentDisjunctionMisses) {
      recentDisjunctionMisses.forget(victim);
    }
  }

  /** Lets the policy see the hits recorded since it last did (write lock held). */
  private void applyPendingHits() {
    pendingHits.drainTo(
        key -> {
          if (policy.isResident(key)) {
            policy.onHit(key);
          }
        });
  }

  /**
   * Removes {@code key}'s entry, its tail result and its place in the part index, found by the
   * key's terms without reading the entry (the NVM tier would decode it from the pool): a key whose
   * entry holds no parts is in no holder set.
   */
  private void drop(QueryKey key) {
    for (int i = 0; i < key.terms().size() && !partHolders.isEmpty(); i++) {
      QueryKey term = key.termKey(i);
      Set<QueryKey> holders = partHolders.get(term);
      if (holders != null && holders.remove(key) && holders.isEmpty()) {
        partHolders.remove(term);
      }
    }
    tails.remove(key);
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
