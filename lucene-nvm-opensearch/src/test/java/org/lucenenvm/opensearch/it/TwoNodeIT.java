package org.lucenenvm.opensearch.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import org.junit.After;
import org.junit.Test;

/**
 * A cluster on 127.0.0.1: peer recovery of replicas on the NVM store, a node stopping and coming
 * back, and a node without the plugin.
 */
public class TwoNodeIT {
  private Node first;
  private Node second;
  private Node plain;

  @After
  public void stopNodes() {
    for (Node node : new Node[] {plain, second, first}) {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  public void replicasRecoverAndSurviveANodeStopping() throws IOException {
    Distribution dist = Distribution.get();
    first = new Node(dist, "node-1", true, List.of(
        "node.roles=cluster_manager,data,ingest", "cluster.initial_cluster_manager_nodes=node-1"));
    first.start();
    String seed = "discovery.seed_hosts=127.0.0.1:" + first.transportPort;
    second = new Node(dist, "node-2", true, List.of("node.roles=data,ingest", seed));
    second.start();
    Rest rest = first.rest;
    assertEquals(2, rest.get("/_cluster/health?wait_for_nodes=2&timeout=120s").ok().body().get("number_of_nodes").asInt());

    // Index without replicas, then add them: the replicas copy real segment files by peer recovery.
    rest.put("/replicated", Docs.nvmIndex(2, 0, "64mb")).ok();
    int n = 4000;
    assertEquals(n, Docs.index(rest, "replicated", 0, n, 5).size());
    rest.post("/replicated/_flush", null).ok();
    rest.put("/replicated/_settings", "{\"index.number_of_replicas\": 1}").ok();
    Docs.waitForStatus(rest, "replicated", "green");
    JsonNode recoveries = rest.get("/_cat/recovery/replicated?format=json&h=shard,type,stage,files_total").ok().body();
    int peer = 0;
    for (JsonNode recovery : recoveries) {
      if (recovery.get("type").asText().equals("peer")) {
        assertEquals(recovery.toString(), "done", recovery.get("stage").asText());
        assertTrue("a replica recovered files: " + recovery, recovery.get("files_total").asInt() > 0);
        peer++;
      }
    }
    assertEquals("peer recoveries: " + recoveries, 2, peer);
    rest.post("/replicated/_refresh", null).ok();
    SingleNodeIT.assertSearchable(rest, "replicated", n);
    SingleNodeIT.assertSearchable(second.rest, "replicated", n);

    second.stop();
    Docs.waitForStatus(rest, "replicated", "yellow");
    SingleNodeIT.assertSearchable(rest, "replicated", n);

    second.start();
    Docs.waitForStatus(rest, "replicated", "green");
    SingleNodeIT.assertSearchable(second.rest, "replicated", n);

    // A node without the plugin joins: no copy of an nvm-store shard is sent there.
    plain = new Node(dist, "node-plain", false, List.of("node.roles=data,ingest", seed));
    plain.start();
    assertEquals(3, rest.get("/_cluster/health?wait_for_nodes=3&timeout=120s").ok().body().get("number_of_nodes").asInt());
    rest.put("/replicated/_settings", "{\"index.number_of_replicas\": 2}").ok();
    String explanation = "";
    for (int i = 0; i < 60 && !explanation.contains("node-plain"); i++) {
      Node.sleep(500);
      explanation = rest.post("/_cluster/allocation/explain",
          "{\"index\": \"replicated\", \"shard\": 0, \"primary\": false}").body().toString();
    }
    assertTrue(explanation, explanation.contains(
        "index [replicated] has [index.store.type: nvm] but node [node-plain] does not have the lucene-nvm plugin installed"));
    SingleNodeIT.assertSearchable(rest, "replicated", n);
    SingleNodeIT.assertSearchable(plain.rest, "replicated", n);
    rest.put("/replicated/_settings", "{\"index.number_of_replicas\": 1}").ok();
    Docs.waitForStatus(rest, "replicated", "green");
  }
}
