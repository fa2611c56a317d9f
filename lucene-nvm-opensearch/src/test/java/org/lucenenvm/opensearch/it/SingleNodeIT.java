package org.lucenenvm.opensearch.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.lucenenvm.opensearch.NvmShardDirectory;

/** One real node on 127.0.0.1: restart, snapshot/restore, bad settings and a full pool. */
public class SingleNodeIT {
  private static Node node;

  @BeforeClass
  public static void startNode() throws IOException {
    node = new Node(Distribution.get(), "single", true, List.of("discovery.type=single-node"));
    node.start();
  }

  @AfterClass
  public static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  public void everyDocumentSurvivesForceMergeAndRestart() throws IOException {
    Rest rest = node.rest;
    rest.put("/restart", Docs.nvmIndex(1, 0, "64mb")).ok();
    int n = 5000;
    assertEquals(n, Docs.index(rest, "restart", 0, n, 5).size());
    rest.post("/restart/_refresh", null).ok();
    assertSearchable(rest, "restart", n);
    JsonNode suggest = rest.post("/restart/_search",
        "{\"suggest\": {\"s\": {\"prefix\": \"doc12\", \"completion\": {\"field\": \"suggest\"}}}}").ok().body();
    assertEquals("completion suggester on the nvm codec: " + suggest, 5,
        suggest.at("/suggest/s/0/options").size());

    rest.post("/restart/_forcemerge?max_num_segments=1", null).ok();
    rest.post("/restart/_flush", null).ok();
    JsonNode segments = rest.get("/restart/_segments").ok().body().at("/indices/restart/shards/0/0/segments");
    assertEquals("segments after force-merge: " + segments, 1, segments.size());
    assertFilePlacement(rest, "restart");

    node.stop();
    node.start();
    Docs.waitForStatus(rest, "restart", "green");
    assertSearchable(rest, "restart", n);
  }

  @Test
  public void snapshotAndRestoreRoundTrip() throws IOException {
    Rest rest = node.rest;
    rest.put("/snap", Docs.nvmIndex(1, 0, "32mb")).ok();
    int n = 2000;
    assertEquals(n, Docs.index(rest, "snap", 0, n, 5).size());
    rest.post("/snap/_refresh", null).ok();
    rest.put("/_snapshot/repo", "{\"type\": \"fs\", \"settings\": {\"location\": \"" + node.dir.resolve("repo") + "\"}}").ok();
    rest.put("/_snapshot/repo/s1?wait_for_completion=true", "{\"indices\": \"snap\"}").ok();
    rest.delete("/snap").ok();
    rest.post("/_snapshot/repo/s1/_restore?wait_for_completion=true", "{\"indices\": \"snap\"}").ok();
    Docs.waitForStatus(rest, "snap", "green");
    assertSearchable(rest, "snap", n);
  }

  @Test
  public void badPoolSettingsAreRejectedWithTheSettingsName() throws IOException {
    Rest rest = node.rest;
    assertRejected(rest, Docs.nvmIndex(1, 0, "1kb"), "index.store.nvm.pool.size");
    assertRejected(rest,
        "{\"settings\": {\"index.store.type\": \"nvm\", \"index.store.nvm.pool.path\": \"../../x.pool\"}}",
        "index.store.nvm.pool.path");
    assertRejected(rest,
        "{\"settings\": {\"index.store.type\": \"nvm\", \"index.store.nvm.pool.backend\": \"tape\"}}",
        "index.store.nvm.pool.backend");
    assertEquals(404, rest.get("/bad").status());
  }

  @Test
  public void fullPoolNamesTheSettingAndLosesNothingAcknowledged() throws IOException {
    Rest rest = node.rest;
    rest.put("/full", Docs.nvmIndex(1, 0, "8mb").replace("\"-1\"", "\"200ms\"")).ok();
    List<String> acknowledged = Docs.index(rest, "full", 0, 20_000, 60);
    assertTrue("an 8 MB pool cannot hold 20000 documents of 60 words", acknowledged.size() < 20_000);

    String details = "";
    for (int i = 0; i < 120 && !details.contains("is full"); i++) {
      details = rest.post("/_cluster/allocation/explain", "{\"index\": \"full\", \"shard\": 0, \"primary\": true}")
          .body().path("unassigned_info").path("details").asText();
      Node.sleep(500);
    }
    assertTrue(details, details.contains(
        "NVM pool of shard [full][0] on node [single] is full (index.store.nvm.pool.size = 8mb)"));

    // Closing fails while the shard is between allocation retries; try until it is closed.
    boolean closed = false;
    for (int i = 0; i < 120 && !closed; i++) {
      closed = rest.post("/full/_close", null).body().at("/indices/full/closed").asBoolean();
      if (!closed) {
        Node.sleep(500);
      }
    }
    assertTrue("index [full] closed", closed);
    rest.put("/full/_settings", "{\"index.store.nvm.pool.size\": \"128mb\"}").ok();
    rest.post("/full/_open", null).ok();
    Docs.waitForStatus(rest, "full", "green");
    rest.post("/full/_refresh", null).ok();
    String ids = acknowledged.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(","));
    long found = rest.post("/full/_search", "{\"size\": 0, \"track_total_hits\": true, \"query\": {\"ids\": {\"values\": [" + ids + "]}}}")
        .ok().body().at("/hits/total/value").asLong();
    assertEquals("acknowledged documents after growing the pool", acknowledged.size(), found);
  }

  private static void assertRejected(Rest rest, String body, String setting) throws IOException {
    Rest.Response response = rest.put("/bad", body);
    assertEquals(response.body().toString(), 400, response.status());
    assertTrue(response.body().toString(), response.body().toString().contains(setting));
  }

  static void assertSearchable(Rest rest, String index, int n) throws IOException {
    assertEquals(n, Docs.count(rest, index, "*:*"));
    assertEquals(n, Docs.count(rest, index, "body:doc"));
    for (int k : new int[] {0, 7, 49}) {
      assertEquals("term" + k, Docs.expectedTermCount(n, k), Docs.count(rest, index, "body:term" + k));
    }
  }

  /** The shard's index/ folder holds only what OpenSearch reads directly; the rest is pooled. */
  private static void assertFilePlacement(Rest rest, String index) throws IOException {
    String uuid = rest.get("/" + index + "/_settings").ok().body().at("/" + index + "/settings/index/uuid").asText();
    Path shard = node.dir.resolve("data/nodes/0/indices/" + uuid + "/0");
    assertTrue(Files.size(shard.resolve("nvm/index.pool")) >= 64L << 20);
    try (Stream<Path> files = Files.list(shard.resolve("index"))) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      assertFalse(names.isEmpty());
      for (String name : names) {
        assertTrue("unexpected file outside the pool: " + name, NvmShardDirectory.isFileResident(name));
      }
    }
  }
}
