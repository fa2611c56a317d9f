package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.realtime.DurabilityMode;

/**
 * A pool filled through HTTP in the server's default mode (CRASH_CONSISTENT): {@code _bulk} answers
 * 200 with per-line items (the first refused line and every later one 429, each applied line 201,
 * and {@code acknowledged} exactly the 201s); a single add answers 429 with a JSON error naming
 * the index, its pool file, the used and total bytes and the flood stage; searches, gets and {@code
 * DELETE} go on; {@code _stats} and {@code /metrics} show the pool's figures; once deletes freed
 * room, adds are taken again without a restart and the document count is exact.
 */
public class FloodStageTest {
  private static final long POOL_BYTES = 16L << 20;
  private static final File SHM = new File("/dev/shm");

  /** On tmpfs when there is one: every acknowledged add persists its ingest log record. */
  @Rule
  public TemporaryFolder tmp =
      TemporaryFolder.builder().parentFolder(SHM.canWrite() ? SHM : null).build();

  private final Random random = new Random(42);

  /** {@code count} documents from {@code d<from>}: a few words and 32 KB stored, drawn from {@code random}. */
  static String ndjson(Random random, int from, int count) {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      StringBuilder stored = new StringBuilder();
      while (stored.length() < 32_000) {
        stored.append(Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
      }
      body.append("{\"id\":\"d").append(i).append("\",\"body\":\"word").append(i % 10)
          .append(" common\",\"blob\":\"").append(stored).append("\"}\n");
    }
    return body.toString();
  }

  /** Whether the index refuses writes for the next half second. */
  private static boolean refusedSteadily(LiveServer s) throws Exception {
    for (int i = 0; i < 5; i++) {
      if (!s.get("/indexes/cap/_stats").json().get("writesRefused").asBoolean()) {
        return false;
      }
      Thread.sleep(100);
    }
    return true;
  }

  @Test
  public void fullPoolAnswers429AndTakesWritesAgainAfterDeletes() throws Exception {
    ServerConfig config =
        LiveServer.config(tmp.newFolder().toPath())
            .mode(DurabilityMode.CRASH_CONSISTENT)
            .logBytes(4L << 20)
            .poolSizeBytes(POOL_BYTES)
            .poolMaxBytes(0) // a pool that does not grow while serving fills up
            .segmentSize(5)
            .build();
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(
          201, s.createIndex("cap", "{\"fields\": {\"body\": \"text\", \"blob\": \"stored\"}}").status());
      String pool = config.dataDir().resolve("cap.pool").toString();

      // Bulk until lines are refused and stay refused (a merge's output can take the pool above
      // the flood stage until its sources are freed). Every reply is a 200 with an item per line:
      // the applied ones first, then the refused line and every later one.
      List<String> acknowledged = new ArrayList<>();
      JsonNode refusedItem = null;
      for (int batch = 0; refusedItem == null || !refusedSteadily(s); batch++) {
        assertTrue("the pool never refused a line", batch < 100);
        LiveServer.Res r = s.send("POST", "/indexes/cap/_bulk", ndjson(random, batch * 50, 50));
        assertEquals(r.body(), 200, r.status());
        JsonNode out = r.json();
        JsonNode items = out.get("items");
        assertEquals(50, items.size());
        refusedItem = null;
        int applied = 0;
        for (int i = 0; i < items.size(); i++) {
          JsonNode item = items.get(i);
          assertEquals(i + 1, item.get("line").asInt());
          assertEquals("d" + (batch * 50 + i), item.get("id").asText());
          if (refusedItem == null && item.get("status").asInt() == 201) {
            assertFalse(item.has("error"));
            acknowledged.add(item.get("id").asText());
            applied++;
          } else {
            assertEquals(item.toString(), 429, item.get("status").asInt());
            String error = item.get("error").asText();
            if (refusedItem == null) {
              refusedItem = item;
            } else {
              assertTrue(error, error.startsWith("not applied: line " + refusedItem.get("line")));
            }
          }
        }
        assertEquals(applied, out.get("acknowledged").asLong());
        assertEquals(50 - applied, out.get("failed").asLong());
        assertEquals(applied < 50, out.get("errors").asBoolean());
      }
      String error = refusedItem.get("error").asText();
      assertTrue(error, error.contains("index 'cap' refuses adds and updates"));
      assertTrue(error, error.contains(pool));
      assertTrue(error, error.contains(String.format(Locale.ROOT, "of %,d bytes used", POOL_BYTES)));
      assertTrue(error, error.contains("flood stage 95%"));

      // A single add: 429 with the figures as members of the error.
      LiveServer.Res single = s.send("POST", "/indexes/cap/docs", "{\"id\":\"one\",\"body\":\"x\"}");
      assertEquals(single.body(), 429, single.status());
      JsonNode e = single.json().get("error");
      assertEquals(429, e.get("status").asInt());
      assertEquals("cap", e.get("index").asText());
      assertEquals(pool, e.get("pool").asText());
      assertEquals(POOL_BYTES, e.get("pool_total_bytes").asLong());
      assertTrue(e.toString(), e.get("pool_used_bytes").asLong() >= 0.95 * POOL_BYTES);
      assertEquals(0.95, e.get("flood_stage").asDouble(), 0);
      assertEquals(429, s.send("PUT", "/indexes/cap/docs/d0", "{\"body\":\"replaced\"}").status());

      // Reads go on; the pool's state is in _stats and /metrics.
      JsonNode stats = s.get("/indexes/cap/_stats").json();
      assertEquals(acknowledged.size(), stats.get("docs").asLong());
      assertEquals(POOL_BYTES, stats.get("poolBytes").asLong());
      assertEquals(POOL_BYTES, stats.get("poolUsedBytes").asLong() + stats.get("poolFreeBytes").asLong());
      assertEquals(0.95, stats.get("floodStage").asDouble(), 0);
      assertTrue(stats.toString(), stats.get("floodStageReached").asBoolean());
      assertTrue(stats.get("writesRefused").asBoolean());
      String metrics = s.get("/metrics").body();
      assertTrue(metrics, metrics.contains("lucenenvm_index_writes_refused{index=\"cap\"} 1.0"));
      assertTrue(metrics, metrics.contains("lucenenvm_index_flood_stage_ratio{index=\"cap\"} 0.95"));
      assertTrue(metrics, metrics.contains("lucenenvm_index_pool_used_bytes{index=\"cap\"}"));
      assertEquals(200, s.get("/indexes/cap/docs/" + acknowledged.getLast()).status());
      assertEquals(404, s.get("/indexes/cap/docs/one").status());
      long word3 = acknowledged.stream().filter(id -> id.endsWith("3")).count();
      assertEquals(word3, s.search("cap", "word3", 10).json().get("total_hits").asLong());

      // Deletes go on, and free room: adds are taken again without a restart.
      int deleted = acknowledged.size() * 6 / 10;
      for (String id : acknowledged.subList(0, deleted)) {
        LiveServer.Res r = s.send("DELETE", "/indexes/cap/docs/" + id, null);
        assertEquals(r.body(), 200, r.status());
      }
      acknowledged.subList(0, deleted).clear();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (s.get("/indexes/cap/_stats").json().get("writesRefused").asBoolean()) {
        assertTrue("writes still refused after the deletes", System.nanoTime() < deadline);
        Thread.sleep(20);
      }
      assertEquals(201, s.send("POST", "/indexes/cap/docs", "{\"id\":\"one\",\"body\":\"common\"}").status());
      acknowledged.add("one");
      stats = s.get("/indexes/cap/_stats").json();
      assertEquals(acknowledged.size(), stats.get("docs").asLong());
      assertFalse(stats.get("writesRefused").asBoolean());
    }
  }
}
