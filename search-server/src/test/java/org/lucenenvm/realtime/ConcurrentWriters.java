package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.lucenenvm.realtime.CrashConsistentEngine.Acknowledged;
import org.lucenenvm.realtime.CrashConsistentEngine.Op;

/**
 * Test support: several writer threads adding, updating and deleting documents of one engine,
 * recorded in one {@link Acknowledged} model. Writer {@code w} works on ids of its own ({@code
 * p<w>-<n>}) and on ids every writer shares ({@code s<n>}); the model lets one writer at a time
 * have an id in flight, so concurrent operations on one id are never acknowledged in an order the
 * test cannot know, while the engine sees writers overlapping on the same ids over time.
 *
 * <p>Every body starts with a token naming the operation that wrote it ({@code <tag>w<w>n<n>}),
 * so a term query finds exactly the current version of a document; the rest is {@link
 * TestCorpus} text of about 2 KB, so that a few hundred operations wrap a minimal ingest log.
 */
final class ConcurrentWriters {
  /** Ids of each writer's own. */
  static final int OWN_IDS = 30;
  /** Ids every writer shares. */
  static final int SHARED_IDS = 12;
  private static final int BODY_WORDS = 800;

  private final int writers;

  ConcurrentWriters(int writers) {
    this.writers = writers;
  }

  /** Every id a writer may touch. */
  List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      for (int n = 0; n < OWN_IDS; n++) {
        ids.add(ownId(w, n));
      }
    }
    for (int n = 0; n < SHARED_IDS; n++) {
      ids.add("s" + n);
    }
    return ids;
  }

  private static String ownId(int writer, int n) {
    return "p" + writer + "-" + n;
  }

  /**
   * Runs {@code operations} operations per writer on {@code engine}, recording them in {@code
   * acked}; bodies are tagged {@code tag}. Returns once every writer is done; a writer's failure
   * (after the others finished) is rethrown.
   */
  void run(RtEngine engine, Acknowledged acked, int operations, String tag, long seed)
      throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    Random seeds = new Random(seed);
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Random random = new Random(seeds.nextLong());
      Thread thread =
          new Thread(
              () -> {
                try {
                  for (int n = 0; n < operations; n++) {
                    Op op = begin(acked, writer, tag + "w" + writer + "n" + n, random);
                    op.run(engine);
                    acked.acknowledge(op);
                  }
                } catch (Throwable t) {
                  synchronized (failures) {
                    failures.add(t);
                  }
                }
              },
              "writer-" + tag + "-" + w);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      AssertionError error = new AssertionError("writer failed: " + failures.get(0), failures.get(0));
      failures.subList(1, failures.size()).forEach(error::addSuppressed);
      throw error;
    }
  }

  /**
   * The next operation of {@code writer}, in flight: on a shared id a third of the time, else on
   * one of its own; an add if the id is absent, else an update or (one time in three) a delete.
   */
  private static Op begin(Acknowledged acked, int writer, String token, Random random) {
    String body = token + " " + TestCorpus.text(random, BODY_WORDS);
    while (true) {
      String id =
          random.nextInt(3) == 0
              ? "s" + random.nextInt(SHARED_IDS)
              : ownId(writer, random.nextInt(OWN_IDS));
      Op op =
          acked.begin(
              id,
              (chosen, current) ->
                  current == null
                      ? new Op(LogOperation.ADD, chosen, body)
                      : new Op(random.nextInt(3) == 0 ? LogOperation.DELETE : LogOperation.UPDATE, chosen, body));
      if (op != null) {
        return op;
      }
    }
  }
}
