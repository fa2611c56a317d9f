package org.lucenenvm.cache;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The cache's bookkeeping over both storages: admission by the inclusion threshold, eviction when
 * the storage is full (never an error), the Partial Type I index, reopening a region, and a region
 * that cannot persist (the result stays uncached, nothing throws).
 */
public class ResultCacheTest extends LuceneTestCase {
  private static CacheEntry entry(QueryKey key, int hits) {
    return entry(key, hits, 0);
  }

  private static CacheEntry entry(QueryKey key, int hits, long computeNanos) {
    List<ScoredDoc> docs = new ArrayList<>();
    for (int i = 0; i < hits; i++) {
      docs.add(new ScoredDoc(0, i, 10f - i));
    }
    List<ResultList> parts = List.of();
    if (key.operator() == QueryKey.Operator.OR) {
      parts =
          List.of(
              new ResultList(1, true, docs.subList(0, 1)), new ResultList(0, true, List.of()));
    }
    return new CacheEntry(
        key,
        Math.max(20, hits),
        computeNanos,
        List.of(new SegmentTag(0, 1, 0)),
        new ResultList(hits, true, docs),
        parts);
  }

  private static QueryKey concurrentKey(int i) {
    return i % 3 == 0
        ? EntryStoreTest.key(QueryKey.Operator.OR, "k" + i, "j" + i)
        : EntryStoreTest.key(QueryKey.Operator.SINGLE, "k" + i);
  }

  /** The one entry of {@code key} in the concurrent test: its size and cost depend on the key. */
  private static CacheEntry concurrentEntry(QueryKey key) {
    int n = Math.floorMod(key.hashCode(), 20);
    return entry(key, 1 + n, 1000L * n);
  }

  private static ResultCacheSettings settings(long bytes, CachePolicy.Kind policy, long minNanos) {
    return ResultCacheSettings.of(ResultCacheSettings.Tier.DRAM, bytes, policy, minNanos);
  }

  public void testInclusionThresholdKeepsOutCheapResults() {
    try (ResultCache cache = ResultCache.inDram(settings(1 << 16, CachePolicy.Kind.LRU, 1000))) {
      QueryKey a = EntryStoreTest.key(QueryKey.Operator.SINGLE, "a");
      assertFalse(cache.admit(entry(a, 5, 999)));
      assertNull(cache.get(a));
      assertTrue(cache.admit(entry(a, 5, 1000)));
      assertEquals(entry(a, 5, 1000), cache.get(a));
      assertEquals(1, cache.stats().rejected());
    }
  }

  public void testAFullStorageEvictsAndNeverFails() {
    for (CachePolicy.Kind policy : CachePolicy.Kind.values()) {
      try (ResultCache cache = ResultCache.inDram(settings(4096, policy, 0))) {
        for (int i = 0; i < 200; i++) {
          QueryKey key = EntryStoreTest.key(QueryKey.Operator.SINGLE, "t" + i);
          assertTrue(cache.admit(entry(key, 20)));
        }
        ResultCacheStats stats = cache.stats();
        assertTrue(stats.toString(), stats.evictions() > 0 && stats.bytes() <= 4096);
        assertNotNull(cache.get(EntryStoreTest.key(QueryKey.Operator.SINGLE, "t199")));
        QueryKey big = EntryStoreTest.key(QueryKey.Operator.SINGLE, "big");
        assertFalse("larger than the storage", cache.admit(entry(big, 400)));
      }
    }
  }

  public void testMissReportsARepeatedDisjunctionOnly() {
    ResultCacheSettings settings = settings(4096, CachePolicy.Kind.LRU, 0);
    int remembered = settings.maxEntries();
    try (ResultCache cache = ResultCache.inDram(settings)) {
      QueryKey single = EntryStoreTest.key(QueryKey.Operator.SINGLE, "x");
      assertFalse(cache.miss(single));
      assertFalse("single-term keys are not remembered", cache.miss(single));
      QueryKey or = EntryStoreTest.key(QueryKey.Operator.OR, "x", "y");
      assertFalse(cache.miss(or));
      assertTrue(cache.miss(or));
      for (int i = 0; i < remembered; i++) {
        assertFalse(cache.miss(EntryStoreTest.key(QueryKey.Operator.OR, "a" + i, "b")));
      }
      assertFalse("forgotten after maxEntries newer misses", cache.miss(or));
      assertEquals(4 + remembered + 1, cache.stats().misses());
    }
  }

  public void testAnEvictionForgetsThatADisjunctionMissed() {
    ResultCacheSettings settings = settings(4096, CachePolicy.Kind.LRU, 0);
    try (ResultCache cache = ResultCache.inDram(settings)) {
      QueryKey or = EntryStoreTest.key(QueryKey.Operator.OR, "x", "y");
      QueryKey invalidated = EntryStoreTest.key(QueryKey.Operator.OR, "u", "v");
      for (QueryKey key : List.of(or, invalidated)) {
        assertFalse(cache.miss(key));
        assertTrue(cache.admit(entry(key, 3)));
      }
      cache.invalidate(invalidated);
      assertTrue("an invalidated disjunction missed before", cache.miss(invalidated));
      for (int i = 0; cache.get(or) != null; i++) {
        cache.admit(entry(EntryStoreTest.key(QueryKey.Operator.SINGLE, "t" + i), 20));
      }
      assertFalse("evicted: a first miss again", cache.miss(or));
      assertTrue(cache.miss(or));
    }
  }

  public void testATailResultLivesOnlyWithItsEntry() {
    try (ResultCache cache = ResultCache.inDram(settings(1 << 16, CachePolicy.Kind.LRU, 0))) {
      QueryKey key = EntryStoreTest.key(QueryKey.Operator.SINGLE, "x");
      TailResult tail =
          new TailResult(
              List.of(new SegmentTag(0, 1, 0)),
              10,
              0f,
              List.of(new TailSegment(0, 2, true, 5, 0)),
              new ResultList(1, true, List.of(new ScoredDoc(0, 4, 1.5f))));
      cache.keepTail(key, tail);
      assertNull("no entry: not kept", cache.tail(key));
      cache.admit(entry(key, 3));
      cache.keepTail(key, tail);
      assertSame(tail, cache.tail(key));
      cache.tailResumed();
      assertEquals(1, cache.stats().tailResumes());
      cache.invalidate(key);
      assertNull("dropped with its entry", cache.tail(key));
      cache.admit(entry(key, 3));
      assertNull("a new entry starts without one", cache.tail(key));
    }
  }

  public void testATailResultNamesOnlyCoveredDocumentsAndAScoreFloor() {
    List<SegmentTag> epoch = List.of(new SegmentTag(0, 1, 0));
    List<TailSegment> segments = List.of(new TailSegment(0, 2, true, 5, 0));
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new TailResult(
                epoch, 10, 0f, segments, new ResultList(1, true, List.of(new ScoredDoc(0, 5, 1f)))));
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new TailResult(
                epoch, 10, 0f, segments, new ResultList(1, true, List.of(new ScoredDoc(1, 0, 1f)))));
    expectThrows(IllegalArgumentException.class, () -> new TailSegment(0, 2, true, -1, 0));
    ResultList none = new ResultList(0, true, List.of());
    for (float floor : new float[] {-1f, Float.NaN, Float.POSITIVE_INFINITY}) {
      expectThrows(
          IllegalArgumentException.class, () -> new TailResult(epoch, 10, floor, segments, none));
    }
  }

  public void testPartHoldersFollowTheirEntries() {
    try (ResultCache cache = ResultCache.inDram(settings(1 << 16, CachePolicy.Kind.LRU, 0))) {
      QueryKey or = EntryStoreTest.key(QueryKey.Operator.OR, "x", "y");
      QueryKey x = EntryStoreTest.key(QueryKey.Operator.SINGLE, "x");
      cache.admit(entry(or, 3));
      assertEquals(List.of(entry(or, 3)), cache.partHolders(x));
      cache.hit(or, true);
      assertEquals(1, cache.stats().partialHits());
      cache.invalidate(or);
      assertEquals(List.of(), cache.partHolders(x));
      assertEquals(1, cache.stats().invalidations());
    }
  }

  /**
   * An evicted or replaced disjunction entry leaves its terms' holders (the part index is cleaned
   * without reading the entry), also for entries recovered by a reopen of the NVM tier.
   */
  public void testPartHoldersFollowEvictionsAndReplacementsAfterAReopen() {
    MemorySegment region = Arena.ofAuto().allocate(1 << 16, 16);
    ResultCacheSettings nvm =
        ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 16, CachePolicy.Kind.LRU, 0);
    QueryKey or = EntryStoreTest.key(QueryKey.Operator.OR, "x", "y");
    QueryKey x = EntryStoreTest.key(QueryKey.Operator.SINGLE, "x");
    try (ResultCache cache = ResultCache.inRegion(region, Persister.NONE, nvm, () -> {})) {
      assertTrue(cache.admit(entry(or, 3)));
    }
    try (ResultCache cache = ResultCache.inRegion(region, Persister.NONE, nvm, () -> {})) {
      assertEquals("indexed on reopen", List.of(entry(or, 3)), cache.partHolders(x));
      assertTrue(cache.admit(entry(or, 4)));
      assertEquals("replaced", List.of(entry(or, 4)), cache.partHolders(x));
      for (int i = 0; cache.get(or) != null; i++) {
        assertTrue("never evicted", i < 10_000);
        assertTrue(cache.admit(entry(EntryStoreTest.key(QueryKey.Operator.SINGLE, "t" + i), 3)));
      }
      assertEquals(List.of(), cache.partHolders(x));
      assertTrue(cache.admit(entry(or, 3)));
      assertEquals("back after an eviction", List.of(entry(or, 3)), cache.partHolders(x));
    }
  }

  /**
   * GDSF keeps the expensive entry while cheap ones churn through a full cache, also after a
   * reopen of the region (the entry's compute time is kept with it).
   */
  public void testGdsfKeepsAnExpensiveEntryAcrossAReopen() {
    MemorySegment region = Arena.ofAuto().allocate(1 << 13, 16);
    ResultCacheSettings nvm =
        ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 13, CachePolicy.Kind.GDSF, 0);
    QueryKey expensive = EntryStoreTest.key(QueryKey.Operator.AND, "a", "b");
    try (ResultCache cache = ResultCache.inRegion(region, Persister.NONE, nvm, () -> {})) {
      assertTrue(cache.admit(entry(expensive, 20, 1_000_000)));
    }
    try (ResultCache cache = ResultCache.inRegion(region, Persister.NONE, nvm, () -> {})) {
      assertEquals(entry(expensive, 20, 1_000_000), cache.get(expensive));
      for (int i = 0; i < 100; i++) {
        QueryKey cheap = EntryStoreTest.key(QueryKey.Operator.SINGLE, "t" + i);
        assertTrue(cache.admit(entry(cheap, 20, 10_000)));
      }
      assertTrue(cache.stats().toString(), cache.stats().evictions() > 50);
      assertNotNull("the expensive entry stays", cache.get(expensive));
      assertNotNull("the newest cheap one is in", cache.get(EntryStoreTest.key(QueryKey.Operator.SINGLE, "t99")));
    }
    // LRU, for contrast, lets the churn evict it
    try (ResultCache cache =
        ResultCache.inDram(settings(1 << 13, CachePolicy.Kind.LRU, 0))) {
      assertTrue(cache.admit(entry(expensive, 20, 1_000_000)));
      for (int i = 0; i < 100; i++) {
        cache.admit(entry(EntryStoreTest.key(QueryKey.Operator.SINGLE, "t" + i), 20, 10_000));
      }
      assertNull(cache.get(expensive));
    }
  }

  /**
   * Lookups, hits, admissions and invalidations from several threads at once, on both tiers and
   * every policy, in a cache small enough to evict: every lookup returns the whole entry of its
   * key, the sizes stay within bounds, and a reopened region holds only whole entries.
   */
  public void testConcurrentLookupsAndChangesStayConsistent() throws Exception {
    for (CachePolicy.Kind policy : CachePolicy.Kind.values()) {
      MemorySegment region = Arena.ofAuto().allocate(1 << 14, 16);
      ResultCacheSettings settings =
          ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 14, policy, 0);
      for (boolean nvm : new boolean[] {false, true}) {
        try (ResultCache cache =
            nvm
                ? ResultCache.inRegion(region, Persister.NONE, settings, () -> {})
                : ResultCache.inDram(settings(1 << 14, policy, 0))) {
          long seed = random().nextLong();
          List<Thread> threads = new ArrayList<>();
          List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
          for (int t = 0; t < 4; t++) {
            Random r = new Random(seed + t);
            threads.add(
                new Thread(
                    () -> {
                      try {
                        for (int i = 0; i < 3000; i++) {
                          QueryKey key = concurrentKey(r.nextInt(80));
                          CacheEntry found = cache.get(key);
                          if (r.nextInt(40) == 0) {
                            cache.invalidate(key);
                          } else if (found != null) {
                            assertEquals(concurrentEntry(key), found);
                            cache.hit(key, false);
                          } else {
                            cache.miss(key);
                            cache.admit(concurrentEntry(key));
                          }
                        }
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
          }
          threads.forEach(Thread::start);
          for (Thread thread : threads) {
            thread.join();
          }
          assertEquals(List.of(), failures);
          ResultCacheStats stats = cache.stats();
          assertTrue(stats.toString(), stats.evictions() > 0);
          assertTrue(stats.toString(), stats.entries() <= settings.maxEntries());
          assertTrue(stats.toString(), stats.bytes() <= stats.capacityBytes());
          assertTrue(stats.toString(), stats.hits() > 0 && stats.hits() + stats.misses() <= 4 * 3000);
        }
      }
      try (ResultCache reopened = ResultCache.inRegion(region, Persister.NONE, settings, () -> {})) {
        for (int k = 0; k < 80; k++) {
          CacheEntry entry = reopened.get(concurrentKey(k));
          assertTrue(entry == null || entry.equals(concurrentEntry(concurrentKey(k))));
        }
      }
    }
  }

  public void testRegionReopensWarmAndSurvivesAPersistFailure() {
    MemorySegment region = Arena.ofAuto().allocate(1 << 16, 16);
    ResultCacheSettings nvm =
        ResultCacheSettings.of(ResultCacheSettings.Tier.NVM, 1 << 16, CachePolicy.Kind.DLIRS, 0);
    QueryKey a = EntryStoreTest.key(QueryKey.Operator.AND, "a", "b");
    try (ResultCache cache = ResultCache.inRegion(region, Persister.NONE, nvm, () -> {})) {
      assertTrue(cache.admit(entry(a, 4)));
    }
    FailingPersister flaky = new FailingPersister();
    try (ResultCache cache = ResultCache.inRegion(region, flaky, nvm, () -> {})) {
      assertEquals(entry(a, 4), cache.get(a));
      assertEquals(1, cache.stats().entries());
      flaky.failPersist(0);
      QueryKey c = EntryStoreTest.key(QueryKey.Operator.SINGLE, "c");
      try (CapturedLog log = new CapturedLog(ResultCache.class)) {
        assertFalse(cache.admit(entry(c, 2)));
        assertEquals(
            List.of("result not cached: java.io.IOException: simulated persist failure"),
            log.warnings());
      }
      assertNull(cache.get(c));
      assertEquals(1, cache.stats().rejected());
    }
  }
}
