package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.store.PoolGrowth;

/**
 * {@code --pool-max-size}: an index's pool grows while the index serves (by default with no
 * maximum but the file system's room), every line of every bulk acknowledged; {@code _stats} and
 * {@code /metrics} report the pool's size and the size it can reach; a restart keeps the grown pool
 * with every document.
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

  /** The default configuration grows a pool past its initial size without refusing a write. */
  @Test
  public void defaultConfigurationGrowsWithoutAMaximum() throws Exception {
    Path dataDir = tmp.newFolder().toPath();
    long usable = Files.getFileStore(dataDir).getUsableSpace();
    Assume.assumeTrue(
        "the file system keeps the default margin and room to grow: " + usable + " bytes usable",
        usable > PoolGrowth.DEFAULT_FILE_SYSTEM_MARGIN_BYTES + 4 * MAX_BYTES);
    ServerConfig config =
        LiveServer.config(dataDir)
            .mode(DurabilityMode.CRASH_CONSISTENT)
            .logBytes(2L << 20)
            .poolSizeBytes(POOL_BYTES)
            .segmentSize(5)
            .build();
    assertEquals(PoolGrowth.unbounded(), config.poolGrowth());
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(
          201, s.createIndex("grow", "{\"fields\": {\"body\": \"text\", \"blob\": \"stored\"}}").status());
      int docs = 0;
      for (int batch = 0; batch < 12; batch++) {
        LiveServer.Res r = s.send("POST", "/indexes/grow/_bulk", FloodStageTest.ndjson(random, docs, 50));
        assertEquals(r.body(), 200, r.status());
        assertFalse(r.body(), r.json().get("errors").asBoolean());
        docs += 50;
      }
      JsonNode stats = s.get("/indexes/grow/_stats").json();
      long poolBytes = stats.get("poolBytes").asLong();
      assertTrue(stats.toString(), poolBytes > POOL_BYTES);
      assertTrue("can grow further: " + stats, stats.get("poolMaxBytes").asLong() > poolBytes);
      assertFalse(stats.toString(), stats.get("writesRefused").asBoolean());
      assertEquals(docs, stats.get("docs").asLong());
    }
  }

  @Test
  public void maximumBelowThePoolSizeIsRefused() {
    IllegalArgumentException e =
        org.junit.Assert.assertThrows(
            IllegalArgumentException.class,
            () -> ServerConfig.builder().poolSizeBytes(POOL_BYTES).poolMaxBytes(POOL_BYTES / 2).build());
    assertTrue(e.getMessage(), e.getMessage().contains("poolMaxBytes must be 0 (no growth while serving), PoolGrowth.UNBOUNDED or >= poolSizeBytes"));
  }
}
