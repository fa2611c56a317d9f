package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.demo.SyntheticCorpus;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngineConfig;

/**
 * The ingest log's limits seen through HTTP: a full log refuses a bulk line and the lines after it
 * with 503 items, a single write with 503 and Retry-After (naming the index, the log and the
 * settings), and loses nothing acknowledged; an index whose logs would
 * not leave its segments half the pool is refused with 400.
 */
public class IngestLogFullTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private ServerConfig.Builder crashConsistent() throws Exception {
    return LiveServer.config(tmp.newFolder().toPath())
        .mode(DurabilityMode.CRASH_CONSISTENT)
        .logBytes(RtEngineConfig.MIN_LOG_BYTES);
  }

  /**
   * {@code count} documents from {@code from} on; each body is repeated up to {@code minChars}
   * characters (0: once).
   */
  private static String bulk(int from, int count, int minChars) {
    SyntheticCorpus corpus = new SyntheticCorpus(10_000);
    StringBuilder body = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      String text = corpus.document(i).fields().get("body");
      StringBuilder repeated = new StringBuilder(text);
      while (repeated.length() < minChars) {
        repeated.append(' ').append(text);
      }
      body.append("{\"id\":\"d").append(i).append("\",\"body\":\"").append(repeated).append("\"}\n");
    }
    return body.toString();
  }

  @Test
  public void fullLogAnswers503AndARetrySucceeds() throws Exception {
    // No wait for room: a writer that gets ahead of the pipeline by the log's size is refused at
    // once (the default waits 30 s for the pipeline to make room).
    try (LiveServer s = new LiveServer(crashConsistent().logFullTimeout(Duration.ZERO).build())) {
      assertEquals(201, s.createIndex("logged", "{\"fields\": {\"body\": \"text\"}}").status());
      // Records of 40 KB in a 64 KiB log: a record fits only once the one before it was reclaimed,
      // which takes a flush, an engrave and a checkpoint; the next line of the same bulk asks for
      // room long before that. (Small records would race the pipeline: on a fast machine it
      // reclaims as fast as a bulk writes, and the log is never full.)
      long acknowledged = 0;
      LiveServer.Res last = null;
      for (int batch = 0; batch < 20; batch++) {
        last = s.send("POST", "/indexes/logged/_bulk", bulk((int) acknowledged, 10, 40_000));
        assertEquals(last.body(), 200, last.status());
        acknowledged += last.json().get("acknowledged").asLong();
        if (last.json().get("errors").asBoolean()) {
          break;
        }
      }
      // The first line refused and every later one: 503, not applied.
      JsonNode items = last.json().get("items");
      int firstRefused = last.json().get("acknowledged").asInt();
      for (int i = firstRefused; i < items.size(); i++) {
        assertEquals(items.get(i).toString(), 503, items.get(i).get("status").asInt());
      }
      String m = items.get(firstRefused).get("error").asText();
      assertTrue(m, m.contains("index 'logged' cannot take this write now, its ingest log is full"));
      assertTrue(m, m.contains("retry"));
      assertTrue(m, m.contains("of " + RtEngineConfig.MIN_LOG_BYTES + " bytes hold records"));
      assertTrue(m, m.contains("--log-size") && m.contains("--log-full-timeout"));
      assertEquals(200, s.get("/health").status());
      // Everything acknowledged is there, the refused document is not.
      assertEquals(acknowledged, s.get("/indexes/logged/_stats").json().get("docs").asLong());
      assertEquals(200, s.get("/indexes/logged/docs/d" + (acknowledged - 1)).status());
      assertEquals(404, s.get("/indexes/logged/docs/d" + acknowledged).status());
      // The pipeline makes room: the same write succeeds when retried (each 503 until then says
      // when to retry).
      LiveServer.Res retry = null;
      String doc = bulk((int) acknowledged, 1, 40_000).strip();
      for (int attempt = 0; attempt < 100; attempt++) {
        retry = s.send("POST", "/indexes/logged/docs", doc);
        if (retry.status() != 503) {
          break;
        }
        assertEquals("1", retry.raw().headers().firstValue("Retry-After").orElse("none"));
        Thread.sleep(50);
      }
      assertEquals(retry.body(), 201, retry.status());
      assertEquals(200, s.get("/indexes/logged/docs/d" + acknowledged).status());
    }
  }

  @Test
  public void indexWhoseLogsTakeMoreThanHalfItsPoolIsRefused() throws Exception {
    // 16 MiB pools, 1 MiB logs: 8 partitions fit, 9 do not.
    try (LiveServer s = new LiveServer(crashConsistent().logBytes(1L << 20).build())) {
      LiveServer.Res refused = s.createIndex("wide", "{\"fields\": {\"body\": \"text\"}, \"partitions\": 9}");
      assertEquals(refused.body(), 400, refused.status());
      String m = refused.errorMessage();
      assertTrue(m, m.contains("ingest logs (" + (9L << 20) + " bytes: log size " + (1L << 20) + " x 9 partition(s))"));
      assertTrue(m, m.contains("half the pool size " + (16L << 20)));
      assertEquals(404, s.get("/indexes/wide").status());
      assertEquals(201, s.createIndex("wide", "{\"fields\": {\"body\": \"text\"}, \"partitions\": 8}").status());
      assertEquals(201, s.send("POST", "/indexes/wide/docs", "{\"id\":\"a\",\"body\":\"x\"}").status());
    }
  }
}
