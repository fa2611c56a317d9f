package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Test support for crash-consistent engines: a small configuration, a model of the acknowledged
 * state (id to body, with the operations in flight) and the check that a recovered engine holds
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

    /** The id's body once it is applied (null: deleted). */
    String bodyAfter() {
      return operation == LogOperation.DELETE ? null : body;
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

  /**
   * The acknowledged state and the operations in flight. Writers may run on several threads, each
   * on an id no other writer has in flight (see {@link #begin}), so the acknowledged state is exact
   * whatever order the engine applied concurrent operations in.
   */
  static final class Acknowledged {
    private final Map<String, String> state;
    /** Id to the operation in flight on it. */
    private final Map<String, Op> inFlight = new HashMap<>();

    Acknowledged() {
      this(Map.of());
    }

    /** A model whose acknowledged state starts as {@code initial} (e.g. what a recovery held). */
    Acknowledged(Map<String, String> initial) {
      state = new HashMap<>(initial);
    }

    /** Runs {@code op} on {@code engine} and records it as acknowledged once it returns. */
    void run(RtEngine engine, Op op) {
      synchronized (this) {
        if (inFlight.putIfAbsent(op.id(), op) != null) {
          throw new IllegalStateException("id " + op.id() + " is already in flight");
        }
      }
      op.run(engine);
      acknowledge(op);
    }

    /**
     * Puts in flight the operation {@code choose} makes of {@code id} and its acknowledged body
     * (null when absent), and returns it; returns null, choosing nothing, when another writer has
     * {@code id} in flight. Run it, then {@link #acknowledge} it.
     */
    synchronized Op begin(String id, BiFunction<String, String, Op> choose) {
      if (inFlight.containsKey(id)) {
        return null;
      }
      Op op = choose.apply(id, state.get(id));
      inFlight.put(id, op);
      return op;
    }

    /** Records {@code op}, which returned, as acknowledged. */
    synchronized void acknowledge(Op op) {
      op.applyTo(state);
      inFlight.remove(op.id());
    }

    synchronized Map<String, String> state() {
      return new HashMap<>(state);
    }

    /** What a crash now may leave: the acknowledged state, each op in flight applied or not. */
    synchronized Snapshot snapshot() {
      return new Snapshot(new HashMap<>(state), List.copyOf(inFlight.values()));
    }
  }

  /** The acknowledged state at a crash point and the ops in flight then, on distinct ids. */
  record Snapshot(Map<String, String> state, List<Op> inFlight) {
    /**
     * Asserts that {@code engine} holds {@code state} with each op in flight applied or not (any
     * subset: which of them reached the log is unknown), and returns what it holds.
     */
    Map<String, String> assertHeldBy(RtEngine engine, String where) throws Exception {
      Map<String, String> actual = contents(engine);
      Map<String, Op> flying = new HashMap<>();
      inFlight.forEach(op -> flying.put(op.id(), op));
      Set<String> ids = new TreeSet<>(state.keySet());
      ids.addAll(actual.keySet());
      ids.addAll(flying.keySet());
      List<String> wrong = new ArrayList<>();
      for (String id : ids) {
        String held = actual.get(id);
        Op op = flying.get(id);
        if (!Objects.equals(held, state.get(id)) && (op == null || !Objects.equals(held, op.bodyAfter()))) {
          wrong.add(
              id + " (recovered " + describe(held) + ", acknowledged " + describe(state.get(id))
                  + (op == null ? "" : ", in flight " + op.operation() + " to " + describe(op.bodyAfter()))
                  + ")");
        }
      }
      if (!wrong.isEmpty()) {
        LuceneTestCase.fail(
            where + ": recovered " + actual.size() + " docs, acknowledged " + state.size() + ", "
                + inFlight.size() + " ops in flight; " + wrong.size() + " ids wrong: "
                + wrong.subList(0, Math.min(10, wrong.size())));
      }
      return actual;
    }

    private static String describe(String body) {
      return body == null ? "absent" : "'" + body.substring(0, Math.min(24, body.length())) + "'";
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
