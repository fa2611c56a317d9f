package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.realtime.DurabilityMode;

/**
 * {@code --pool-max-size}: an index's pool grows while the index serves, every line of every bulk
 * acknowledged; {@code _stats} and {@code /metrics} report the pool's size and the size it may grow
 * to; a restart keeps the grown pool with every document.
 */
public class PoolGrowthWhileServingTest {
  private static final long POOL_BYTES = 16L << 20;
  private static final long MAX_BYTES = 48L << 20;
  private static final File SHM = new File("/dev/shm");

  @Rule
  public TemporaryFolder tmp =
      TemporaryFolder.builder().parentFolder(SHM.canWrite() ? SHM : null).build();

  private final Random random = new Random(42);

  @Test
  public void poolGrowsWhileServingUpToItsMaximum() throws Exception {
    Path dataDir = tmp.newFolder().toPath();
    ServerConfig config =
        LiveServer.config(dataDir)
            .mode(DurabilityMode.CRASH_CONSISTENT)
            .logBytes(2L << 20)
            .poolSizeBytes(POOL_BYTES)
            .poolMaxBytes(MAX_BYTES)
            .segmentSize(5)
            .build();
    int docs = 0;
    long grownTo;
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(
          201, s.createIndex("grow", "{\"fields\": {\"body\": \"text\", \"blob\": \"stored\"}}").status());
      JsonNode stats = s.get("/indexes/grow/_stats").json();
      assertEquals(POOL_BYTES, stats.get("poolBytes").asLong());
      assertEquals(MAX_BYTES, stats.get("poolMaxBytes").asLong());
      // 32 KB documents, more than the initial pool holds.
      for (int batch = 0; batch < 12; batch++) {
        LiveServer.Res r = s.send("POST", "/indexes/grow/_bulk", FloodStageTest.ndjson(random, docs, 50));
        assertEquals(r.body(), 200, r.status());
        JsonNode out = r.json();
        assertFalse(out.toString(), out.get("errors").asBoolean());
        assertEquals(50, out.get("acknowledged").asLong());
        docs += 50;
      }
      stats = s.get("/indexes/grow/_stats").json();
      grownTo = stats.get("poolBytes").asLong();
      assertTrue(stats.toString(), grownTo > POOL_BYTES && grownTo <= MAX_BYTES);
      assertEquals(MAX_BYTES, stats.get("poolMaxBytes").asLong());
      assertEquals(docs, stats.get("docs").asLong());
      assertEquals(grownTo, stats.get("poolUsedBytes").asLong() + stats.get("poolFreeBytes").asLong());
      assertEquals(grownTo, Files.size(dataDir.resolve("grow.pool")));
      String metrics = s.get("/metrics").body();
      assertTrue(metrics, metrics.contains("lucenenvm_index_pool_max_bytes{index=\"grow\"} " + (double) MAX_BYTES));
      assertTrue(metrics, metrics.contains("lucenenvm_index_pool_bytes{index=\"grow\"} " + (double) grownTo));
      assertEquals(docs / 10, s.search("grow", "word3", 10).json().get("total_hits").asLong());
    }
    try (LiveServer s = new LiveServer(config)) {
      JsonNode stats = s.get("/indexes/grow/_stats").json();
      assertTrue(stats.toString(), stats.get("poolBytes").asLong() >= grownTo);
      assertEquals(docs, stats.get("docs").asLong());
      assertEquals(docs / 10, s.search("grow", "word3", 10).json().get("total_hits").asLong());
    }
  }

  @Test
  public void maximumBelowThePoolSizeIsRefused() {
    IllegalArgumentException e =
        org.junit.Assert.assertThrows(
            IllegalArgumentException.class,
            () -> ServerConfig.builder().poolSizeBytes(POOL_BYTES).poolMaxBytes(POOL_BYTES / 2).build());
    assertTrue(e.getMessage(), e.getMessage().contains("poolMaxBytes must be 0 (no growth while serving) or >= poolSizeBytes"));
  }
}
