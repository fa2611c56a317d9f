package org.lucenenvm.realtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Test support for crash-consistent engines: a small configuration, a model of the acknowledged
 * state (id to body, with the one operation in flight) and the check that a recovered engine holds
 * exactly that.
 */
final class CrashConsistentEngine {
  static final RtSchema SCHEMA = RtSchema.builder().text("body").build();
  /** Ids are "d" and a number below this. */
  private static final int ID_SPACE = 100_000;

  private CrashConsistentEngine() {}

  /** Tiny segments and log, so a short run crosses flush, engrave, merge and log reuse. */
  static RtEngineConfig config() {
    return RtEngineConfig.defaults(SCHEMA)
        .withCodec(TestUtil.getDefaultCodec())
        .withMode(DurabilityMode.CRASH_CONSISTENT)
        .withSegmentSize(40)
        .withMergeFactor(3)
        .withMaxSegments(5)
        .withQueueCapacity(2)
        .withLogBytes(RtEngineConfig.MIN_LOG_BYTES);
  }

  /** One write and how it changes the model. */
  record Op(LogOperation operation, String id, String body) {
    void applyTo(Map<String, String> state) {
      if (operation == LogOperation.DELETE) {
        state.remove(id);
      } else {
        state.put(id, body);
      }
    }

    /** Runs it on {@code engine}. */
    void run(RtEngine engine) {
      switch (operation) {
        case ADD -> engine.add(new RtDocument(id, Map.of("body", body)));
        case UPDATE -> engine.update(new RtDocument(id, Map.of("body", body)));
        case DELETE -> LuceneTestCase.assertTrue(id, engine.delete(id));
      }
    }
  }

  /**
   * A random valid next operation for {@code state}: mostly adds, a quarter updates and deletes
   * (only those once the state holds 3,000 documents, so long runs stay bounded).
   */
  static Op randomOp(Random r, Map<String, String> state, int n) {
    String body = "v" + n + " " + TestCorpus.text(r, 6);
    if (!state.isEmpty() && (state.size() > 3000 || r.nextInt(4) == 0)) {
      // Probing the id space picks a live id uniformly in O(1) per probe; skipping into the key
      // set cost O(live documents) per operation, which made the kill loop's child (that
      // regenerates the stream up to where it resumes) slower at every kill point.
      String id;
      do {
        id = "d" + r.nextInt(ID_SPACE);
      } while (!state.containsKey(id));
      return new Op(r.nextBoolean() ? LogOperation.DELETE : LogOperation.UPDATE, id, body);
    }
    String id;
    do {
      id = "d" + r.nextInt(ID_SPACE);
    } while (state.containsKey(id));
    return new Op(LogOperation.ADD, id, body);
  }

  /** The acknowledged state and the operation in flight, updated by one writer thread. */
  static final class Acknowledged {
    private final Map<String, String> state = new HashMap<>();
    private Op inFlight;

    /** Runs {@code op} on {@code engine} and records it as acknowledged once it returns. */
    void run(RtEngine engine, Op op) {
      synchronized (this) {
        inFlight = op;
      }
      op.run(engine);
      synchronized (this) {
        op.applyTo(state);
        inFlight = null;
      }
    }

    synchronized Map<String, String> state() {
      return new HashMap<>(state);
    }

    /** What a crash now may leave: the acknowledged state, or that plus the op in flight. */
    synchronized Snapshot snapshot() {
      return new Snapshot(new HashMap<>(state), inFlight);
    }
  }

  /** The acknowledged state at a crash point and the op in flight then (or null). */
  record Snapshot(Map<String, String> state, Op inFlight) {
    /** Asserts that {@code engine} holds {@code state}, or {@code state} plus the op in flight. */
    void assertHeldBy(RtEngine engine, String where) throws Exception {
      Map<String, String> actual = contents(engine);
      if (actual.equals(state)) {
        return;
      }
      if (inFlight != null) {
        Map<String, String> withInFlight = new HashMap<>(state);
        inFlight.applyTo(withInFlight);
        if (actual.equals(withInFlight)) {
          return;
        }
      }
      Map<String, String> missing = new HashMap<>(state);
      missing.entrySet().removeAll(actual.entrySet());
      Map<String, String> extra = new HashMap<>(actual);
      extra.entrySet().removeAll(state.entrySet());
      LuceneTestCase.fail(
          where + ": recovered " + actual.size() + " docs, acknowledged " + state.size()
              + "; in flight " + inFlight + "; missing or different " + missing.keySet()
              + "; extra or different " + extra.keySet());
    }
  }

  /** Every live document of {@code engine}: id to body. */
  static Map<String, String> contents(RtEngine engine) throws Exception {
    int live = (int) engine.stats().liveDocs();
    RtSearchResult all =
        engine.search(
            RtSearchRequest.of(
                org.apache.lucene.search.MatchAllDocsQuery.INSTANCE, Math.max(1, live + 10)));
    Map<String, String> actual = new HashMap<>();
    for (RtHit hit : all.hits()) {
      String previous = actual.put(hit.id(), hit.fields().get("body"));
      LuceneTestCase.assertNull("id " + hit.id() + " is live twice", previous);
    }
    LuceneTestCase.assertEquals(live, actual.size());
    return actual;
  }
}
