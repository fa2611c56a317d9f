package org.lucenenvm.realtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Visibility, budgets, graceful restart and input validation of {@link RtEngine}. */
public class RtEngineTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtEngineDifferentialTest.SCHEMA;

  private static RtEngineConfig smallConfig() {
    return RtEngineConfig.defaults(SCHEMA)
        .withCodec(TestUtil.getDefaultCodec())
        .withSegmentSize(200)
        .withDramBudgetBytes(60_000)
        .withMergeFactor(3);
  }

  private static RtDocument doc(String id, String body) {
    return new RtDocument(id, Map.of("body", body));
  }

  private static int count(RtEngine engine, TermQuery q) throws Exception {
    try (RtSnapshot s = engine.acquireSnapshot()) {
      return s.searcher().count(q);
    }
  }

  public void testAcknowledgedDocumentIsVisibleToEveryLaterQuery() throws Exception {
    int numDocs = 6000;
    AtomicInteger acknowledged = new AtomicInteger(-1);
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicInteger checks = new AtomicInteger();
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, smallConfig())) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        Random r = new Random(random().nextLong());
        Thread reader =
            new Thread(
                () -> {
                  try {
                    start.await();
                    while (!done.get() && failure.get() == null) {
                      int a = acknowledged.get();
                      if (a < 0) {
                        Thread.yield();
                        continue;
                      }
                      int older = r.nextInt(a + 1);
                      try (RtSnapshot s = engine.acquireSnapshot()) {
                        IndexSearcher searcher = s.searcher();
                        assertEquals(1, searcher.count(new TermQuery(new Term("body", "u" + a))));
                        assertEquals(1, searcher.count(new TermQuery(new Term("id", "d" + older))));
                        int common = searcher.count(new TermQuery(new Term("body", "common")));
                        assertTrue(common + " < " + (a + 1), common >= a + 1);
                      }
                      checks.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        reader.start();
        readers.add(reader);
      }
      start.countDown();
      for (int i = 0; i < numDocs && failure.get() == null; i++) {
        engine.add(doc("d" + i, "common u" + i + " " + TestCorpus.text(random(), 5)));
        acknowledged.set(i);
      }
      done.set(true);
      for (Thread reader : readers) {
        reader.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("reader failed", failure.get());
      }
      assertTrue(checks.get() > 0);
      RtEngineStats stats = engine.stats();
      assertEquals(numDocs, stats.liveDocs());
      assertTrue(stats.toString(), stats.stages().get("merger").items() > 0);
    }
  }

  public void testConcurrentUpdatesAreAtomicForQueries() throws Exception {
    int ids = 300;
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, smallConfig().withSegmentSize(50))) {
      for (int i = 0; i < ids; i++) {
        engine.add(doc("d" + i, "version0"));
      }
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        Random r = new Random(random().nextLong());
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < 3000 && failure.get() == null; i++) {
                      engine.update(doc("d" + r.nextInt(ids), "version" + (i + 1)));
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                }));
      }
      Thread reader =
          new Thread(
              () -> {
                Random r = new Random(random().nextLong());
                try {
                  while (!done.get() && failure.get() == null) {
                    try (RtSnapshot s = engine.acquireSnapshot()) {
                      int all = s.searcher().count(MatchAllDocsQuery.INSTANCE);
                      assertEquals(ids, all);
                      Term id = new Term("id", "d" + r.nextInt(ids));
                      assertEquals(1, s.searcher().count(new TermQuery(id)));
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      threads.forEach(Thread::start);
      reader.start();
      for (Thread t : threads) {
        t.join();
      }
      done.set(true);
      reader.join();
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      assertEquals(ids, engine.stats().liveDocs());
      for (int i = 0; i < ids; i++) {
        assertNotNull(engine.get("d" + i));
      }
    }
  }

  public void testDramStaysWithinBudgetPlusOneSegment() throws Exception {
    long budget = 50_000;
    for (PipelinePolicy policy : PipelinePolicy.values()) {
      try (Directory nvm = new ByteBuffersDirectory();
          RtEngine engine =
              RtEngine.open(nvm, smallConfig().withDramBudgetBytes(budget).withPolicy(policy))) {
        for (int i = 0; i < 4000; i++) {
          engine.add(TestCorpus.randomDocument(random(), "d" + i));
        }
        RtEngineStats stats = engine.stats();
        assertTrue(stats.toString(), stats.largestDramSegmentBytes() > 0);
        assertTrue(
            policy + " " + stats,
            stats.peakDramBytes() <= budget + stats.largestDramSegmentBytes());
        assertTrue(
            policy + " " + stats, stats.dramBytes() <= budget + stats.largestDramSegmentBytes());
        assertTrue(policy + " " + stats, stats.segments().getOrDefault(SegmentState.COMMITTED, 0)
            + stats.segments().getOrDefault(SegmentState.MERGED, 0) > 0);
        assertTrue(policy + " " + stats, stats.nvmBytes() > 0);
        assertEquals(4000, stats.liveDocs());
      }
    }
  }

  public void testDramPeakIsCountedPerEngine() throws Exception {
    RtEngineConfig config =
        smallConfig()
            .withDramBudgetBytes(Long.MAX_VALUE)
            .withPolicy(PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER);
    try (Directory nvmA = new ByteBuffersDirectory();
        Directory nvmB = new ByteBuffersDirectory();
        RtEngine a = RtEngine.open(nvmA, config);
        RtEngine b = RtEngine.open(nvmB, config)) {
      for (int i = 0; i < 1000; i++) {
        a.add(TestCorpus.randomDocument(random(), "a" + i));
      }
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (a.stats().peakDramBytes() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5); // the first flush is the indexer's, in the background
      }
      assertTrue(a.stats().toString(), a.stats().peakDramBytes() > 0);
      for (int i = 0; i < 10; i++) { // fewer than a segment: nothing of b's is flushed
        b.add(TestCorpus.randomDocument(random(), "b" + i));
      }
      RtEngineStats other = b.stats();
      assertEquals("a's DRAM is not b's: " + other, 0, other.peakDramBytes());
      assertEquals(other.toString(), 0, other.dramBytes());
    }
  }

  public void testGracefulRestartRestoresEveryDocument() throws Exception {
    Path path = createTempDir("nvm");
    RtEngineConfig config = smallConfig().withMode(DurabilityMode.GRACEFUL);
    Map<String, String> expected = new LinkedHashMap<>();
    Random r = random();
    try (Directory nvm = new MMapDirectory(path)) {
      for (int round = 0; round < 2; round++) {
        try (RtEngine engine = RtEngine.open(nvm, config)) {
          RtEngineStats opened = engine.stats();
          assertEquals(expected.size(), opened.liveDocs());
          assertEquals(opened.toString(), 1, (int) opened.segments().get(SegmentState.INGESTED));
          for (Map.Entry<String, String> e : expected.entrySet()) {
            assertEquals(e.getKey(), 1, count(engine, new TermQuery(new Term("id", e.getKey()))));
          }
          assertAllBodiesFound(engine, expected);
          int base = expected.size() + 1000 * round;
          for (int i = 0; i < 1500; i++) {
            String id = "r" + round + "-" + (base + i);
            String body = "round" + round + " " + TestCorpus.text(r, 8);
            engine.add(doc(id, body));
            expected.put(id, body);
          }
          List<String> ids = new ArrayList<>(expected.keySet());
          for (int i = 0; i < 100; i++) {
            String id = ids.get(r.nextInt(ids.size()));
            if (expected.containsKey(id)) {
              String body = "updated" + round + " " + TestCorpus.text(r, 4);
              engine.update(doc(id, body));
              expected.put(id, body);
            }
            String victim = ids.get(r.nextInt(ids.size()));
            if (expected.remove(victim) != null) {
              assertTrue(engine.delete(victim));
            }
          }
        }
      }
      try (RtEngine engine = RtEngine.open(nvm, config)) {
        assertEquals(expected.size(), engine.stats().liveDocs());
        assertAllBodiesFound(engine, expected);
      }
      Set<String> namespaces = new TreeSet<>();
      for (String name : nvm.listAll()) {
        if (name.startsWith("seg")) {
          namespaces.add(name.substring(0, name.indexOf('_') + 1));
        }
      }
      assertFalse(namespaces.isEmpty());
      for (String namespace : namespaces) {
        TestUtil.checkIndex(NamespacedDirectory.segment(nvm, namespace));
      }
    }
  }

  private static void assertAllBodiesFound(RtEngine engine, Map<String, String> expected)
      throws Exception {
    Map<String, String> actual = new HashMap<>();
    RtSearchResult all = engine.search(RtSearchRequest.of(MatchAllDocsQuery.INSTANCE, Math.max(1, expected.size() + 10)));
    for (RtHit hit : all.hits()) {
      assertNull("duplicate " + hit.id(), actual.put(hit.id(), hit.fields().get("body")));
    }
    assertEquals(expected, actual);
  }

  public void testGracefulOpenRefusesIndexWithoutManifest() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory()) {
      try (IndexOutput out = nvm.createOutput("seg3__0.si", IOContext.DEFAULT)) {
        out.writeInt(1);
      }
      IllegalStateException e =
          expectThrows(
              IllegalStateException.class,
              () -> RtEngine.open(nvm, smallConfig().withMode(DurabilityMode.GRACEFUL)));
      assertTrue(e.getMessage(), e.getMessage().contains("did not shut down gracefully"));
    }
  }

  public void testBadInputIsRefusedBeforeAcknowledgement() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, smallConfig())) {
      engine.add(doc("a", "hello"));
      String huge = "x".repeat(IndexWriter.MAX_TERM_LENGTH + 1);
      assertRefused(engine, new RtDocument(null, Map.of("body", "hello")), "has no 'id'");
      assertRefused(engine, new RtDocument("", Map.of("body", "hello")), "has no 'id'");
      assertRefused(engine, doc("a", "again"), "already exists");
      assertRefused(engine, new RtDocument("b", Map.of("color", "red")), "not declared");
      assertRefused(engine, new RtDocument("b", Map.of("tag", huge)), "longer than the maximum");
      assertRefused(engine, new RtDocument(huge, Map.of("body", "hi")), "longer than the maximum");
      Map<String, String> nullValue = new HashMap<>();
      nullValue.put("body", null);
      assertRefused(engine, new RtDocument("b", nullValue), "null value");
      IllegalArgumentException wrongType =
          expectThrows(
              IllegalArgumentException.class,
              () -> RtDocument.fromObjects("b", Map.of("body", 42)));
      assertTrue(wrongType.getMessage(), wrongType.getMessage().contains("must have a string"));
      assertEquals(1, engine.stats().liveDocs());
      assertEquals(0, count(engine, new TermQuery(new Term("id", "b"))));
      assertNull(engine.get("b"));
      assertEquals(Map.of("body", "hello"), engine.get("a").fields());
      assertFalse(engine.delete("b"));
      assertTrue(engine.delete("a"));
      assertEquals(0, engine.stats().liveDocs());
    }
  }

  private static void assertRefused(RtEngine engine, RtDocument doc, String message) {
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> engine.add(doc));
    assertTrue(e.getMessage(), e.getMessage().contains(message));
  }

  public void testFullNvmRefusesWritesUntilThereIsRoomAndLosesNothing() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine =
            RtEngine.open(nvm, smallConfig().withSegmentSize(100).withNvmBudgetBytes(60_000))) {
      int acknowledged = 0;
      NvmFullException full = null;
      for (int i = 0; i < 20_000 && full == null; i++) {
        try {
          engine.add(doc("d" + i, "common " + TestCorpus.text(random(), 20)));
          acknowledged++;
        } catch (NvmFullException e) {
          full = e;
        }
      }
      assertNotNull("NVM never filled up", full);
      assertTrue(full.getClass().getName(), full instanceof FloodStageException);
      assertTrue(full.getMessage(), full.getMessage().contains("NVM budget exhausted"));
      expectThrows(FloodStageException.class, () -> engine.add(doc("late", "common")));
      assertEquals(acknowledged, count(engine, new TermQuery(new Term("body", "common"))));
      assertTrue(engine.stats().nvmBytes() <= 60_000);
      assertTrue(engine.delete("d0")); // deletes go on

      // With room (here a larger budget) the waiting segment is engraved and writes resume.
      engine.setNvmBudgetBytes(Long.MAX_VALUE);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (engine.poolUsage().refusesWrites()) {
        assertTrue(engine.poolUsage().toString(), System.nanoTime() < deadline);
        Thread.sleep(10);
      }
      engine.add(doc("late", "common"));
      assertEquals(acknowledged, count(engine, new TermQuery(new Term("body", "common"))));
    }
  }

  public void testSearchReportsATimeoutAndStopsCollecting() throws Exception {
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, smallConfig())) {
      for (int i = 0; i < 500; i++) {
        engine.add(doc("d" + i, "common word" + i));
      }
      TermQuery common = new TermQuery(new Term("body", "common"));
      RtSearchResult untimed = engine.search(RtSearchRequest.of(common, 10));
      assertFalse(untimed.timedOut());
      assertEquals(10, untimed.hits().size());
      assertNotNull(untimed.hits().get(0).id());
      RtSearchResult expired = engine.search(RtSearchRequest.of(common, 10).withTimeout(() -> true));
      assertTrue(expired.timedOut());
      assertEquals(0, expired.totalHits().value());
      RtSearchResult expiredInRewrite =
          engine.search(
              RtSearchRequest.of(new WildcardQuery(new Term("body", "comm*")), 10)
                  .withTimeout(() -> true));
      assertTrue("term expansion is bounded by the timeout too", expiredInRewrite.timedOut());
      assertEquals(0, expiredInRewrite.hits().size());
      RtSearchResult bare = engine.search(RtSearchRequest.of(common, 10).withoutStoredFields());
      assertEquals(10, bare.hits().size());
      assertNull(bare.hits().get(0).id());
      assertEquals(untimed.hits().get(0).score(), bare.hits().get(0).score(), 0f);
    }
  }

  public void testUnstoredTextIsSearchableButNotReturned() throws Exception {
    RtSchema schema = RtSchema.builder().text("title").text("body", false).build();
    RtEngineConfig config =
        RtEngineConfig.defaults(schema).withCodec(TestUtil.getDefaultCodec()).withSegmentSize(50);
    try (Directory nvm = new ByteBuffersDirectory();
        RtEngine engine = RtEngine.open(nvm, config)) {
      for (int i = 0; i < 120; i++) { // live and flushed segments alike
        engine.add(new RtDocument("d" + i, Map.of("title", "t" + i, "body", "secret b" + i)));
      }
      assertEquals(120, count(engine, new TermQuery(new Term("body", "secret"))));
      for (String id : List.of("d0", "d119")) {
        assertEquals(Map.of("title", "t" + id.substring(1)), engine.get(id).fields());
      }
    }
  }
}
