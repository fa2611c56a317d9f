package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A full pool stops ingestion with 507 while everything acknowledged stays searchable. A graceful
 * shutdown cannot persist the documents that did not fit, says so, and the next start lists that
 * index as unavailable (503) without stopping the server; dropping it starts over.
 */
public class NvmFullTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void fullPoolAnswers507AndKeepsAcknowledgedDocuments() throws Exception {
    ServerConfig config =
        LiveServer.config(tmp.newFolder().toPath()).poolSizeBytes(1L << 20).segmentSize(20).build();
    LiveServer s = new LiveServer(config);
    try {
      assertEquals(201, s.createIndex("other", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(201, s.send("POST", "/indexes/other/docs", "{\"id\":\"o\",\"body\":\"kept\"}").status());
      assertEquals(201, s.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      SyntheticCorpus corpus = new SyntheticCorpus(5_000);
      long acknowledged = 0;
      LiveServer.Res last = null;
      for (int batch = 0; batch < 200; batch++) {
        StringBuilder body = new StringBuilder();
        for (int i = batch * 20; i < batch * 20 + 20; i++) {
          body.append("{\"id\":\"d").append(i).append("\",\"body\":\"")
              .append(corpus.document(i).fields().get("body")).append("\"}\n");
        }
        last = s.send("POST", "/indexes/small/_bulk", body.toString());
        acknowledged += last.json().get("acknowledged").asLong();
        if (last.status() != 200) {
          break;
        }
      }
      assertEquals(last.body(), 507, last.status());
      assertTrue(last.errorMessage(), last.errorMessage().contains("ingestion stopped"));
      assertTrue(acknowledged > 0);
      LiveServer.Res single = s.send("POST", "/indexes/small/docs", "{\"id\":\"more\",\"body\":\"x\"}");
      assertEquals(single.body(), 507, single.status());
      JsonNode stats = s.get("/indexes/small/_stats").json();
      assertEquals(acknowledged, stats.get("docs").asLong());
      assertEquals(200, s.get("/indexes/small/docs/d0").status());
      assertEquals(200, s.get("/indexes/small/docs/d" + (acknowledged - 1)).status());
      assertEquals(200, s.get("/health").status());
    } finally {
      IOException failure = assertThrows(IOException.class, s::close);
      assertTrue(failure.getMessage(), failure.getMessage().contains("not persisted"));
    }
    try (LiveServer again = new LiveServer(config)) {
      JsonNode health = again.get("/health").json();
      assertEquals("degraded", health.get("status").asText());
      assertTrue(health.get("unavailable").has("small"));
      LiveServer.Res refused = again.get("/indexes/small/_stats");
      assertEquals(refused.body(), 503, refused.status());
      assertTrue(refused.errorMessage().contains("could not be opened"));
      assertEquals(1, again.search("other", "kept", 10).json().get("total_hits").asLong());
      assertEquals(409, again.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(200, again.send("DELETE", "/indexes/small", null).status());
      assertEquals(201, again.createIndex("small", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals("ok", again.get("/health").json().get("status").asText());
    }
  }
}
