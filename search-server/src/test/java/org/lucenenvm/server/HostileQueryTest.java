package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.search.IndexSearcher;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Each {@link QueryLimits} bound refuses (400, naming the setting) or stops (200 with {@code
 * timed_out}) a query that would exceed it, on a real server; the server keeps answering other
 * requests while a bounded expensive query runs, and every acknowledged document stays.
 */
public class HostileQueryTest {
  /**
   * Sloppy phrases of a repeated term, costly to match in documents that repeat it: eight of them
   * took 1.9 s over 2,000 such documents on a 2-core machine, so about four times that for these
   * 32, past the 2 s budget of the test that runs it beside other requests.
   */
  private static final String EXPENSIVE = expensiveQuery();

  private static String expensiveQuery() {
    String phrase = "\"" + "aaaa ".repeat(12).trim() + "\"~";
    List<String> clauses = new ArrayList<>();
    for (int slop = 200; slop < 232; slop++) {
      clauses.add(phrase + slop);
    }
    return String.join(" OR ", clauses);
  }

  @Rule public TemporaryFolder tmp = new TemporaryFolder();
  private LiveServer s;

  @After
  public void stop() throws Exception {
    if (s != null) {
      s.close();
    }
    IndexSearcher.setMaxClauseCount(QueryLimits.DEFAULTS.maxClauseCount());
  }

  /** An index of {@code docs} documents over {@code partitions}; every other one repeats aaaa 200 times. */
  private void start(QueryLimits limits, int docs, int partitions) throws Exception {
    s = new LiveServer(LiveServer.config(tmp.newFolder().toPath()).segmentSize(1000).queryLimits(limits).build());
    assertEquals(201, s.createIndex("q", "{\"fields\": {\"body\": \"text\"}, \"partitions\": " + partitions + "}").status());
    String repeated = "aaaa ".repeat(200);
    StringBuilder bulk = new StringBuilder();
    for (int i = 0; i < docs; i++) {
      bulk.append("{\"id\":\"d").append(i).append("\",\"body\":\"")
          .append(i % 2 == 0 ? repeated : "").append("pre").append(i).append(" bbbb\"}\n");
    }
    assertEquals(200, s.send("POST", "/indexes/q/_bulk", bulk.toString()).status());
  }

  private LiveServer.Res search(String q, String timeout) throws Exception {
    return s.get("/indexes/q/_search?k=10&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
        + (timeout == null ? "" : "&timeout=" + timeout));
  }

  private static void assertRefused(LiveServer.Res r, String fragment) throws Exception {
    assertEquals(r.body(), 400, r.status());
    assertTrue(r.body(), r.errorMessage().contains(fragment));
  }

  @Test
  public void regexpBounds() throws Exception {
    start(QueryLimits.DEFAULTS.withMaxRegexpLength(50), 20, 2);
    assertRefused(search("/a{1000000}/", null), "max-regexp-states (10000)");
    assertRefused(search("/(ab{1000}){1000}/", null), "max-regexp-states");
    assertRefused(search("/" + "a".repeat(51) + "/", null), "max-regexp-length (50)");
    assertRefused(search("pre" + "?".repeat(60), null), "max-regexp-length (50)");
    assertRefused(search("/[ab]*a[ab]{20}/", null), "determinize-work-limit (10000)");
    assertEquals("within the bounds", 200, search("/pre1[0-9]/", null).status());
    assertEquals(10, search("/pre1[0-9]/", null).json().get("total_hits").asLong());
    assertEquals(200, s.get("/health").status());
  }

  @Test
  public void determinizeWorkLimitIsConfigurable() throws Exception {
    start(QueryLimits.DEFAULTS.withDeterminizeWorkLimit(50), 20, 2);
    assertRefused(search("/[ab]*a[ab]{8}/", null), "determinize-work-limit (50)");
    assertRefused(search("p*a????????", null), "determinize-work-limit (50)");
    assertEquals(200, search("/[ab]*a[ab]{2}/", null).status());
  }

  @Test
  public void expansionAndClauseBounds() throws Exception {
    start(QueryLimits.DEFAULTS.withExpansions(3, 5), 20, 1);
    JsonNode prefix = search("pre*", null).json();
    assertEquals("pre* matches 20 terms, 3 searched (per partition)", 3, prefix.get("total_hits").asLong());
    assertEquals(3, search("/pre[0-9]+/", null).json().get("total_hits").asLong());
    assertEquals(3, search("pre1~2", null).json().get("total_hits").asLong());
    assertEquals(3, search("body:[pre0 TO pre9]", null).json().get("total_hits").asLong());
    assertEquals(200, search("pre1 pre2 pre3 pre4 pre5", null).status());
    assertRefused(search("pre1 pre2 pre3 pre4 pre5 pre6", null), "too many boolean clauses");
    assertRefused(search("(pre1 pre2 pre3) AND (pre4 pre5 pre6 pre7)", null), "max-clause-count");
  }

  @Test
  public void timeBudget() throws Exception {
    start(QueryLimits.DEFAULTS.withSearchTimeouts(Duration.ofMillis(1), Duration.ofSeconds(30)), 400, 2);
    JsonNode bounded = search(EXPENSIVE, null).json();
    assertTrue("server default of 1 ms: " + bounded, bounded.get("timed_out").asBoolean());
    JsonNode cheap = search("pre7", "30s").json();
    assertFalse(cheap.get("timed_out").asBoolean());
    assertEquals(1, cheap.get("total_hits").asLong());
    assertEquals("d7", cheap.get("hits").get(0).get("id").asText());
    assertRefused(search("pre7", "31s"), "max-search-timeout (30000ms)");
    assertRefused(search("pre7", "0ms"), "between 1ms");
    assertRefused(search("pre7", "soon"), "invalid duration 'soon'");
  }

  /**
   * An expensive query with a 2 s budget runs while health checks, adds and searches are answered;
   * it is answered within its budget plus the time to finish the document it was scoring (it times
   * out where it costs more than 2 s, as on a 2-core machine; where it costs
   * about 2 s it may finish between two timeout checks, just past the budget, and then its answer
   * is whole), and every acknowledged document stays.
   */
  @Test
  public void serverKeepsAnsweringWhileABoundedExpensiveQueryRuns() throws Exception {
    start(QueryLimits.DEFAULTS, 4000, 2);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      long start = System.nanoTime();
      Future<JsonNode> expensive = pool.submit(() -> search(EXPENSIVE, "2s").json());
      Thread.sleep(100);
      long acknowledged = 4000;
      for (int i = 0; i < 3; i++) {
        assertEquals(200, s.get("/health").status());
        assertEquals(201, s.send("POST", "/indexes/q/docs", "{\"id\":\"new" + i + "\",\"body\":\"fresh" + i + "\"}").status());
        acknowledged++;
        JsonNode found = search("fresh" + i, null).json();
        assertEquals("new" + i, found.get("hits").get(0).get("id").asText());
      }
      long othersDoneMillis = (System.nanoTime() - start) / 1_000_000;
      boolean othersFinishedFirst = !expensive.isDone();
      JsonNode r = expensive.get();
      long answeredMillis = (System.nanoTime() - start) / 1_000_000;
      System.out.printf(
          "bounded expensive query: timed_out=%s answer after %d ms (budget 2000 ms, took_us %d);"
              + " 3 x (health, add, search) done after %d ms%n",
          r.get("timed_out"), answeredMillis, r.get("took_us").asLong(), othersDoneMillis);
      assertTrue("other requests answered while the expensive one ran", othersFinishedFirst);
      long tookMillis = r.get("took_us").asLong() / 1000;
      assertTrue("bounded by the 2 s budget (plus one document's scoring): " + r, tookMillis < 2000 + 3000);
      if (!r.get("timed_out").asBoolean()) {
        // finished between two timeout checks (possibly just past the budget): a whole answer
        assertEquals("not timed out, so every match counted: " + r, 2000, r.get("total_hits").asLong());
        assertTrue("not timed out, so an exact total: " + r, r.get("total_hits_exact").asBoolean());
      }
      assertEquals(acknowledged, s.get("/indexes/q/_stats").json().get("docs").asLong());
    } finally {
      pool.shutdownNow();
    }
  }
}
