package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.util.IOUtils;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.demo.SyntheticCorpus;

/**
 * A pool that really fills up (no flood stage below 100%) refuses adds with 429 while everything
 * acknowledged stays searchable. A graceful shutdown cannot persist the documents that did not
 * fit, says so and keeps what it persisted; the next start lists that index as unavailable (503,
 * naming the missing documents) without stopping the server; dropping it starts over. Dropping a
 * full index that is open deletes it too.
 */
public class NvmFullTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static ServerConfig smallPools(Path dataDir) {
    return LiveServer.config(dataDir).poolSizeBytes(1L << 20).poolMaxBytes(0).segmentSize(20).floodStage(1.0).build();
  }

  /** Bulk-ingests into {@code index} until it refuses a line with 429; returns the acknowledged. */
  private static long fillUntilRefused(LiveServer s, String index) throws Exception {
    SyntheticCorpus corpus = new SyntheticCorpus(5_000);
    long acknowledged = 0;
    LiveServer.Res last = null;
    for (int batch = 0; batch < 200; batch++) {
      StringBuilder body = new StringBuilder();
      for (int i = batch * 20; i < batch * 20 + 20; i++) {
        body.append("{\"id\":\"d").append(i).append("\",\"body\":\"")
            .append(corpus.document(i).fields().get("body")).append("\"}\n");
      }
      last = s.send("POST", "/indexes/" + index + "/_bulk", body.toString());
      assertEquals(last.body(), 200, last.status());
      acknowledged += last.json().get("acknowledged").asLong();
      if (last.json().get("errors").asBoolean()) {
        break;
      }
    }
    JsonNode refused = last.json().get("items").get(last.json().get("acknowledged").asInt());
    assertEquals(refused.toString(), 429, refused.get("status").asInt());
    assertTrue(refused.toString(), refused.get("error").asText().contains("refuses adds and updates"));
    return acknowledged;
  }

  @Test
  public void fullPoolAnswers429AndKeepsAcknowledgedDocuments() throws Exception {
    Path dataDir = tmp.newFolder().toPath();
    ServerConfig config = smallPools(dataDir);
    long[] acknowledgedBefore = new long[1];
    LiveServer s = new LiveServer(config);
    try {
      assertEquals(201, s.createIndex("other", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(201, s.send("POST", "/indexes/other/docs", "{\"id\":\"o\",\"body\":\"kept\"}").status());
      assertEquals(201, s.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      long acknowledged = fillUntilRefused(s, "small");
      acknowledgedBefore[0] = acknowledged;
      assertTrue(acknowledged > 0);
      LiveServer.Res single = s.send("POST", "/indexes/small/docs", "{\"id\":\"more\",\"body\":\"x\"}");
      assertEquals(single.body(), 429, single.status());
      JsonNode stats = s.get("/indexes/small/_stats").json();
      assertEquals(acknowledged, stats.get("docs").asLong());
      assertEquals(200, s.get("/indexes/small/docs/d0").status());
      assertEquals(200, s.get("/indexes/small/docs/d" + (acknowledged - 1)).status());
      assertEquals(200, s.get("/health").status());
    } catch (Throwable t) {
      IOUtils.closeWhileHandlingException(s::close);
      throw t;
    }
    IOException failure = null;
    try {
      s.close();
    } catch (IOException e) {
      failure = e;
    }
    assertTrue(Files.size(dataDir.resolve("small.pool")) > 0);
    if (failure == null) {
      // A merge that finished after the 429 freed room for the rest: nothing was lost, and the
      // index reopens with every acknowledged document.
      try (LiveServer again = new LiveServer(config)) {
        assertEquals(acknowledgedBefore[0], again.get("/indexes/small/_stats").json().get("docs").asLong());
      }
      return;
    }
    assertTrue(failure.getMessage(), failure.getMessage().contains("are not persisted"));
    assertTrue(failure.getMessage(), failure.getMessage().contains("'small'"));
    try (LiveServer again = new LiveServer(config)) {
      JsonNode health = again.get("/health").json();
      assertEquals("degraded", health.get("status").asText());
      assertTrue(health.get("unavailable").has("small"));
      LiveServer.Res refused = again.get("/indexes/small/_stats");
      assertEquals(refused.body(), 503, refused.status());
      assertTrue(refused.errorMessage(), refused.errorMessage().contains("could not be opened"));
      assertTrue(refused.errorMessage(), refused.errorMessage().contains("could not persist"));
      assertEquals(1, again.search("other", "kept", 10).json().get("total_hits").asLong());
      assertEquals(409, again.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(200, again.send("DELETE", "/indexes/small", null).status());
      assertEquals(201, again.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals("ok", again.get("/health").json().get("status").asText());
    }
  }

  @Test
  public void droppingAFullOpenIndexDeletesIt() throws Exception {
    Path dataDir = tmp.newFolder().toPath();
    try (LiveServer s = new LiveServer(smallPools(dataDir))) {
      assertEquals(201, s.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      fillUntilRefused(s, "small");
      assertEquals(200, s.send("DELETE", "/indexes/small", null).status());
      assertEquals(404, s.get("/indexes/small").status());
      assertFalse(Files.exists(dataDir.resolve("small.pool")));
      assertEquals(201, s.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(201, s.send("POST", "/indexes/small/docs", "{\"id\":\"a\",\"body\":\"x\"}").status());
    }
  }
}
