package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.realtime.DurabilityMode;

/**
 * Restarting the server with another {@code --pool-size}: a larger size grows every existing
 * index's pool in place (its documents kept, the new space used), a smaller one leaves the pools as
 * they are.
 */
public class PoolSizeRestartTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final long SMALL = 16L << 20;
  private static final long LARGE = 48L << 20;

  private static ServerConfig config(Path dataDir, long poolSize) {
    return LiveServer.config(dataDir)
        .poolSizeBytes(poolSize)
        .poolMaxBytes(0) // only the restart grows the pools
        .mode(DurabilityMode.CRASH_CONSISTENT)
        .logBytes(1L << 20)
        .build();
  }

  private static String docs(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      b.append("{\"id\":\"d").append(i).append("\",\"body\":\"word").append(i % 7).append(" common\"}\n");
    }
    return b.toString();
  }

  @Test
  public void largerPoolSizeGrowsEveryIndexInPlaceAndSmallerKeepsIt() throws Exception {
    Path dataDir = tmp.newFolder().toPath();
    try (LiveServer s = new LiveServer(config(dataDir, SMALL))) {
      assertEquals(201, s.createIndex("a", "{\"fields\": {\"body\": \"text\"}, \"partitions\": 2}").status());
      assertEquals(201, s.createIndex("b", "{\"fields\": {\"body\": \"text\"}}").status());
      assertEquals(200, s.send("POST", "/indexes/a/_bulk", docs(0, 400)).status());
      assertEquals(200, s.send("POST", "/indexes/b/_bulk", docs(0, 30)).status());
      assertEquals(200, s.send("DELETE", "/indexes/a/docs/d3", null).status());
    }
    assertEquals(SMALL, Files.size(dataDir.resolve("a.pool")));

    try (LiveServer s = new LiveServer(config(dataDir, LARGE))) {
      for (String index : new String[] {"a", "b"}) {
        assertEquals(index + " grown in place", LARGE, Files.size(dataDir.resolve(index + ".pool")));
        JsonNode stats = s.get("/indexes/" + index + "/_stats").json();
        assertEquals(stats.toString(), LARGE, stats.get("poolBytes").asLong());
        assertTrue(stats.toString(), stats.get("poolFreeBytes").asLong() > SMALL);
      }
      assertEquals(399, s.get("/indexes/a/_stats").json().get("docs").asLong());
      assertEquals(30, s.get("/indexes/b/_stats").json().get("docs").asLong());
      assertEquals(404, s.get("/indexes/a/docs/d3").status());
      assertEquals(399, s.search("a", "common", 1000).json().get("total_hits").asLong());
      assertEquals(200, s.send("POST", "/indexes/a/_bulk", docs(400, 800)).status());
      assertEquals(799, s.search("a", "common", 1000).json().get("total_hits").asLong());
    }

    try (LiveServer s = new LiveServer(config(dataDir, SMALL))) {
      assertEquals("a pool never shrinks", LARGE, Files.size(dataDir.resolve("a.pool")));
      assertEquals(LARGE, s.get("/indexes/a/_stats").json().get("poolBytes").asLong());
      assertEquals(799, s.search("a", "common", 1000).json().get("total_hits").asLong());
      assertEquals(30, s.search("b", "common", 1000).json().get("total_hits").asLong());
    }
  }
}
