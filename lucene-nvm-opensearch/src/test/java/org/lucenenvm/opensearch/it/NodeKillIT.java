package org.lucenenvm.opensearch.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.After;
import org.junit.Test;

/**
 * Three real nodes, each cluster-manager-eligible, and an nvm index (3 shards, 1 replica,
 * translog durability {@code request}): while a client bulk-indexes, the node holding the most
 * primaries is killed with SIGKILL and started again, {@code opensearch.it.kills} times (default
 * 3). After the last restart every acknowledged document is found and the index is green. The
 * bytes that recovery copied to each restarted node are printed (the test's output file).
 */
public class NodeKillIT {
  private static final int KILLS = Integer.getInteger("opensearch.it.kills", 3);
  private static final String INDEX = "ingest";

  private final List<Node> nodes = new ArrayList<>();

  @After
  public void stopNodes() {
    nodes.forEach(Node::close);
  }

  @Test
  public void acknowledgedDocumentsSurviveKilledNodes() throws Exception {
    Distribution dist = Distribution.get();
    List<Node> created = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      created.add(new Node(dist, "node-" + i, true, List.of()));
    }
    String seeds = created.stream().map(n -> "127.0.0.1:" + n.transportPort).collect(Collectors.joining(","));
    for (Node node : created) {
      nodes.add(node);
      node.addSettings(List.of(
          "discovery.seed_hosts=" + seeds, "cluster.initial_cluster_manager_nodes=node-1,node-2,node-3"));
    }
    for (Node node : nodes) {
      node.start();
    }
    Rest rest = nodes.get(0).rest;
    assertEquals(3, rest.get("/_cluster/health?wait_for_nodes=3&timeout=120s").ok().body().get("number_of_nodes").asInt());
    rest.put("/" + INDEX, """
        {"settings": {"index.codec": "nvm", "index.store.type": "nvm", "index.store.nvm.pool.size": "64mb",
                      "number_of_shards": 3, "number_of_replicas": 1,
                      "index.translog.durability": "request", "refresh_interval": "1s"},
         "mappings": {"properties": {"body": {"type": "text"}}}}
        """).ok();
    Docs.waitForStatus(rest, INDEX, "green");

    List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger nextId = new AtomicInteger();
    for (int kill = 1; kill <= KILLS; kill++) {
      Node victim = nodeWithMostPrimaries(rest);
      Node client = nodes.stream().filter(n -> n != victim).findFirst().orElseThrow();
      rest = client.rest;
      Ingest ingest = new Ingest(client.rest, nextId, acknowledged);
      Thread thread = new Thread(ingest, "ingest-" + kill);
      thread.start();
      int before = waitForMoreAcknowledged(acknowledged, acknowledged.size() + 1000);
      victim.kill();
      waitForMoreAcknowledged(acknowledged, before + 1000);
      victim.start();
      Docs.waitForStatus(rest, INDEX, "green");
      ingest.stop();
      thread.join();
      if (ingest.failure != null) {
        throw new AssertionError("ingest failed", ingest.failure);
      }
      System.out.println("kill " + kill + " of " + victim.name + ": " + recoveredInto(rest, victim.name));
    }

    rest.post("/" + INDEX + "/_refresh", null).ok();
    assertEquals("acknowledged documents found", acknowledged.size(), countIds(rest, acknowledged));
    JsonNode health = rest.get("/_cluster/health/" + INDEX).ok().body();
    assertEquals(health.toString(), "green", health.get("status").asText());
  }

  /** The node holding the most started primaries of the index. */
  private Node nodeWithMostPrimaries(Rest rest) throws IOException {
    JsonNode shards = rest.get("/_cat/shards/" + INDEX + "?format=json&h=prirep,state,node").ok().body();
    Map<String, Long> primaries = new HashMap<>();
    for (JsonNode shard : shards) {
      if (shard.get("prirep").asText().equals("p") && shard.get("state").asText().equals("STARTED")) {
        primaries.merge(shard.get("node").asText(), 1L, Long::sum);
      }
    }
    String name = primaries.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    return nodes.stream().filter(n -> n.name.equals(name)).findFirst().orElseThrow();
  }

  /** Waits (up to 2 minutes) until at least {@code target} documents are acknowledged. */
  private static int waitForMoreAcknowledged(List<String> acknowledged, int target) {
    long deadline = System.currentTimeMillis() + 120_000;
    while (acknowledged.size() < target) {
      assertTrue("only " + acknowledged.size() + " of " + target + " documents acknowledged in time",
          System.currentTimeMillis() < deadline);
      Node.sleep(100);
    }
    return acknowledged.size();
  }

  /** Per shard copy now on {@code node}: the last recovery's type, files and bytes copied, ops replayed. */
  private static String recoveredInto(Rest rest, String node) throws IOException {
    JsonNode recoveries = rest.get("/_cat/recovery/" + INDEX
        + "?format=json&h=shard,type,target_node,files_recovered,bytes_recovered,translog_ops_recovered").ok().body();
    List<String> lines = new ArrayList<>();
    for (JsonNode recovery : recoveries) {
      if (recovery.get("target_node").asText().equals(node)) {
        lines.add("shard " + recovery.get("shard").asText() + " " + recovery.get("type").asText()
            + " files=" + recovery.get("files_recovered").asText()
            + " bytes=" + recovery.get("bytes_recovered").asText()
            + " translog_ops=" + recovery.get("translog_ops_recovered").asText());
      }
    }
    return String.join("; ", lines);
  }

  private static long countIds(Rest rest, List<String> ids) throws IOException {
    long found = 0;
    for (int from = 0; from < ids.size(); from += 1000) {
      String values = ids.subList(from, Math.min(ids.size(), from + 1000)).stream()
          .map(id -> "\"" + id + "\"").collect(Collectors.joining(","));
      found += rest.post("/" + INDEX + "/_search",
              "{\"size\": 0, \"track_total_hits\": true, \"query\": {\"ids\": {\"values\": [" + values + "]}}}")
          .ok().body().at("/hits/total/value").asLong();
    }
    return found;
  }

  /** Bulk-indexes documents of 100 until stopped, recording the IDs acknowledged. */
  private static final class Ingest implements Runnable {
    private final Rest rest;
    private final AtomicInteger nextId;
    private final List<String> acknowledged;
    private final AtomicBoolean stopped = new AtomicBoolean();
    volatile Exception failure;

    Ingest(Rest rest, AtomicInteger nextId, List<String> acknowledged) {
      this.rest = rest;
      this.nextId = nextId;
      this.acknowledged = acknowledged;
    }

    void stop() {
      stopped.set(true);
    }

    @Override
    public void run() {
      try {
        while (!stopped.get()) {
          StringBuilder bulk = new StringBuilder();
          for (int i = 0; i < 100; i++) {
            int id = nextId.getAndIncrement();
            bulk.append("{\"index\":{\"_id\":\"").append(id).append("\"}}\n")
                .append("{\"body\":\"doc ").append(id).append(" term").append(id % Docs.TERMS).append("\"}\n");
          }
          JsonNode items = rest.bulk("/" + INDEX + "/_bulk?wait_for_active_shards=1&timeout=30s", bulk.toString())
              .body().path("items");
          for (JsonNode item : items) {
            JsonNode result = item.get("index");
            if (!result.has("error") && result.get("status").asInt() < 300) {
              acknowledged.add(result.get("_id").asText());
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        failure = e;
      }
    }
  }
}
