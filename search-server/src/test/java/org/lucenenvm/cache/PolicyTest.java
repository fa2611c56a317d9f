package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;

public class PolicyTest extends LuceneTestCase {
  /** Replays a trace the way the cache drives a policy; returns the hits and records evictions. */
  private static int replay(CachePolicy<String> policy, String trace, List<String> evictions) {
    int hits = 0;
    for (char c : trace.toCharArray()) {
      String key = String.valueOf(c);
      if (policy.isResident(key)) {
        policy.onHit(key);
        hits++;
      } else {
        evictions.addAll(policy.onInsert(key, 0, 1));
      }
      assertTrue(policy.size() <= policy.capacity());
    }
    return hits;
  }

  public void testLruOnAHandComputedTrace() {
    List<String> evictions = new ArrayList<>();
    CachePolicy<String> lru = CachePolicy.create(CachePolicy.Kind.LRU, 3);
    // A B C | A hit | D evicts B | A hit | B evicts C | E evicts D | A hit
    assertEquals(3, replay(lru, "ABCADABEA", evictions));
    assertEquals(List.of("B", "C", "D"), evictions);
    assertEquals(3, lru.size());
    for (String key : List.of("A", "B", "E")) {
      assertTrue(key, lru.isResident(key));
    }
  }

  public void testLruAndDlirsOnTheSameTrace() {
    String trace = "ABCDACABAEBC";
    List<String> lruEvictions = new ArrayList<>();
    // LRU(3): D evicts A, A evicts B, C hit, A hit, B evicts D, A hit, E evicts C, B hit, C evicts
    // A
    assertEquals(4, replay(new LruPolicy<>(3), trace, lruEvictions));
    assertEquals(List.of("A", "B", "D", "C", "A"), lruEvictions);

    // DLIRS(3), LIR space 2, HIR space 1 (worked out step by step in DlirsPolicy's terms):
    //  A, B become LIR; C resident HIR; D evicts C (C stays in S, non-resident);
    //  A hit (LIR); C non-resident miss: HIR space grows to 2, C becomes LIR, B and A are demoted,
    //  D (not in S) evicted; A hit on a demoted HIR: LIR space back to 2; B likewise;
    //  A hit (HIR in S): promoted to LIR; E evicts B (non-resident); B non-resident miss: HIR space
    //  2 again, C and A demoted, E evicted; C hit on a demoted HIR.
    DlirsPolicy<String> dlirs = new DlirsPolicy<>(3);
    List<String> dlirsEvictions = new ArrayList<>();
    assertEquals(5, replay(dlirs, trace, dlirsEvictions));
    assertEquals(List.of("C", "D", "B", "E"), dlirsEvictions);
    assertEquals(2, dlirs.lirLimit());
    for (String key : List.of("A", "B", "C")) {
      assertTrue(key, dlirs.isResident(key));
    }
  }

  public void testDlirsResistsAScanThatFlushesLru() {
    // a hot set of 3 keys re-referenced between one-time keys: LIRS keeps the hot set resident
    StringBuilder trace = new StringBuilder();
    char cold = 'a';
    for (int round = 0; round < 8; round++) {
      trace.append("XYZ");
      for (int i = 0; i < 3; i++) {
        trace.append(cold++);
      }
    }
    int lruHits = replay(new LruPolicy<>(4), trace.toString(), new ArrayList<>());
    int dlirsHits = replay(new DlirsPolicy<>(4), trace.toString(), new ArrayList<>());
    assertEquals(0, lruHits);
    assertEquals(21, dlirsHits); // all but the first round of X, Y, Z
  }

  public void testEvictOneAndRemove() {
    for (CachePolicy.Kind kind : CachePolicy.Kind.values()) {
      CachePolicy<String> policy = CachePolicy.create(kind, 4);
      replay(policy, "ABCD", new ArrayList<>());
      String victim = policy.evictOne();
      assertNotNull(victim);
      assertFalse(policy.isResident(victim));
      assertEquals(3, policy.size());
      policy.remove("D");
      policy.remove("never seen");
      assertFalse(policy.isResident("D"));
      while (policy.evictOne() != null) {
        assertTrue(policy.size() >= 0);
      }
      assertEquals(0, policy.size());
      expectThrows(IllegalArgumentException.class, () -> policy.onHit("A"));
    }
  }

  public void testRandomTracesKeepResidencyConsistent() {
    Random random = random();
    for (CachePolicy.Kind kind : CachePolicy.Kind.values()) {
      int capacity = 2 + random.nextInt(20);
      CachePolicy<Integer> policy = CachePolicy.create(kind, capacity);
      Set<Integer> resident = new HashSet<>();
      for (int i = 0; i < 20_000; i++) {
        int key = (int) Math.min(200, Math.abs(random.nextGaussian() * 30));
        int action = random.nextInt(50);
        if (action == 0) {
          Integer victim = policy.evictOne();
          assertEquals(victim != null, !resident.isEmpty());
          assertTrue(victim == null || resident.remove(victim));
        } else if (action == 1) {
          policy.remove(key);
          resident.remove(key);
        } else if (resident.contains(key)) {
          assertTrue(policy.isResident(key));
          policy.onHit(key);
        } else {
          assertFalse(policy.isResident(key));
          for (Integer evicted : policy.onInsert(key, 0, 1)) {
            assertTrue(resident.remove(evicted));
          }
          resident.add(key);
        }
        assertEquals(resident.size(), policy.size());
        assertTrue(policy.size() <= capacity);
      }
    }
  }

  public void testGdsfOnAHandComputedTrace() {
    GdsfPolicy<String> gdsf = new GdsfPolicy<>(2);
    List<String> evicted = new ArrayList<>();
    evicted.addAll(gdsf.onInsert("A", 100, 1)); // priority 0 + 100
    evicted.addAll(gdsf.onInsert("B", 10, 1)); // 10
    evicted.addAll(gdsf.onInsert("C", 50, 1)); // evicts B (10): clock 10, C = 60
    assertEquals(10, gdsf.clock(), 0);
    evicted.addAll(gdsf.onInsert("D", 1, 1)); // evicts C (60): clock 60, D = 61
    gdsf.onHit("D"); // D = 60 + 2 x 1 = 62
    evicted.addAll(gdsf.onInsert("E", 5, 1)); // evicts D (62): clock 62, E = 67
    assertEquals(List.of("B", "C", "D"), evicted);
    assertEquals(62, gdsf.clock(), 0);
    assertTrue(gdsf.isResident("A"));
    // cheap newcomers age A out: every eviction raises the clock towards A's 100
    int inserted = 0;
    while (gdsf.isResident("A")) {
      gdsf.onInsert("n" + inserted++, 10, 1);
    }
    assertEquals("evicted at the first eviction after the clock reached 100", 5, inserted);
    assertEquals(100, gdsf.clock(), 0);
  }

  public void testGdsfWeighsFrequencyAndSize() {
    GdsfPolicy<String> gdsf = new GdsfPolicy<>(3);
    gdsf.onInsert("hot", 10, 100);
    gdsf.onInsert("cold", 10, 100);
    gdsf.onInsert("big", 10, 1000);
    for (int i = 0; i < 3; i++) {
      gdsf.onHit("hot");
    }
    assertEquals("same cost and hits, ten times the bytes", "big", gdsf.evictOne());
    assertEquals("same cost and bytes, fewer hits", "cold", gdsf.evictOne());
    assertEquals("hot", gdsf.evictOne());
    assertNull(gdsf.evictOne());
    expectThrows(IllegalArgumentException.class, () -> gdsf.onInsert("x", -1, 10));
    expectThrows(IllegalArgumentException.class, () -> gdsf.onInsert("x", 1, 0));
    gdsf.onInsert("x", 1, 1);
    expectThrows(IllegalArgumentException.class, () -> gdsf.onInsert("x", 1, 1));
  }

  /**
   * GDSF's heap against the definition, computed by scanning every resident key: random inserts
   * (with few distinct costs, so priorities tie and the oldest must go first), hits, removals and
   * evictions, with a capacity large enough for the arrays to grow more than once.
   */
  public void testGdsfEvictsAsTheDefinitionSays() {
    Random random = random();
    int capacity = 1 + random.nextInt(300);
    GdsfPolicy<Integer> gdsf = new GdsfPolicy<>(capacity);
    List<double[]> reference = new ArrayList<>(); // key, priority, sequence, frequency, value/byte
    double clock = 0;
    long sequence = 0;
    for (int op = 0; op < 20_000; op++) {
      int key = random.nextInt(2 * capacity + 2);
      double[] resident = null;
      for (double[] r : reference) {
        if (r[0] == key) {
          resident = r;
        }
      }
      assertEquals(resident != null, gdsf.isResident(key));
      int action = random.nextInt(10);
      if (action == 0) {
        gdsf.remove(key);
        reference.remove(resident);
      } else if (action == 1) {
        double[] lowest = lowest(reference);
        Integer evicted = gdsf.evictOne();
        if (lowest == null) {
          assertNull(evicted);
        } else {
          assertEquals((int) lowest[0], (int) evicted);
          clock = lowest[1];
          reference.remove(lowest);
        }
      } else if (resident != null) {
        gdsf.onHit(key);
        resident[3]++;
        resident[1] = clock + resident[3] * resident[4];
      } else {
        long cost = 10 * (1 + random.nextInt(3));
        long bytes = 1 + random.nextInt(2);
        List<Integer> evicted = gdsf.onInsert(key, cost, bytes);
        List<Integer> expected = new ArrayList<>();
        while (reference.size() >= capacity) {
          double[] lowest = lowest(reference);
          expected.add((int) lowest[0]);
          clock = lowest[1];
          reference.remove(lowest);
        }
        assertEquals(expected, evicted);
        double valuePerByte = (double) cost / bytes;
        reference.add(new double[] {key, clock + valuePerByte, sequence++, 1, valuePerByte});
      }
      assertEquals(reference.size(), gdsf.size());
      assertEquals(clock, gdsf.clock(), 0);
    }
  }

  /** The entry GDSF evicts next: lowest priority, then oldest. */
  private static double[] lowest(List<double[]> reference) {
    double[] lowest = null;
    for (double[] r : reference) {
      if (lowest == null || r[1] < lowest[1] || (r[1] == lowest[1] && r[2] < lowest[2])) {
        lowest = r;
      }
    }
    return lowest;
  }

  /**
   * Cheap and expensive keys, equally popular, interleaved in a cache too small for all: LRU keeps
   * whatever came last, GDSF keeps the expensive ones, so its hits save more compute.
   */
  public void testGdsfSavesMoreComputeThanLruWhenCostsDiffer() {
    Random random = random();
    int[] saved = new int[2];
    List<CachePolicy<Integer>> policies = List.of(new LruPolicy<>(20), new GdsfPolicy<>(20));
    long seed = random.nextLong();
    for (int p = 0; p < 2; p++) {
      CachePolicy<Integer> policy = policies.get(p);
      Random trace = new Random(seed);
      for (int i = 0; i < 20_000; i++) {
        int key = trace.nextInt(40); // even keys cost 100, odd keys 1
        int cost = key % 2 == 0 ? 100 : 1;
        if (policy.isResident(key)) {
          policy.onHit(key);
          saved[p] += cost;
        } else {
          policy.onInsert(key, cost, 1);
        }
      }
    }
    assertTrue("LRU saved " + saved[0] + ", GDSF " + saved[1], saved[1] > 1.5 * saved[0]);
  }

  public void testAdmissionRule() {
    AdmissionRule threshold = AdmissionRule.minComputeNanos(50_000);
    assertFalse(threshold.admits(49_999, 100));
    assertTrue(threshold.admits(50_000, 100));
    assertTrue(AdmissionRule.ALWAYS.admits(0, 0));
    expectThrows(IllegalArgumentException.class, () -> AdmissionRule.minComputeNanos(-1));
    expectThrows(IllegalArgumentException.class, () -> new DlirsPolicy<String>(1));
    expectThrows(IllegalArgumentException.class, () -> new LruPolicy<String>(0));
    expectThrows(IllegalArgumentException.class, () -> new GdsfPolicy<String>(0));
  }
}
