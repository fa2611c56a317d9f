package org.lucenenvm.opensearch.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Deterministic test documents and the REST calls the tests repeat: document {@code i} has body
 * {@code "doc i term<i % 50> ..."}, so every count is known in advance.
 */
final class Docs {
  static final int TERMS = 50;

  private Docs() {}

  /** Index settings for the NVM codec and store with a pool of {@code poolSize} per shard. */
  static String nvmIndex(int shards, int replicas, String poolSize) {
    return """
        {"settings": {"index.codec": "nvm", "index.store.type": "nvm",
                      "index.store.nvm.pool.size": "%s",
                      "number_of_shards": %d, "number_of_replicas": %d,
                      "refresh_interval": "-1"},
         "mappings": {"properties": {"body": {"type": "text"}, "tag": {"type": "keyword"},
                                     "suggest": {"type": "completion"}}}}
        """.formatted(poolSize, shards, replicas);
  }

  /**
   * Bulk-indexes documents {@code from} (inclusive) to {@code to} (exclusive), {@code words}
   * filler words each, in requests of 1000, and returns the IDs the cluster acknowledged. Stops
   * after the first request with a failed item (a primary that is not active fails in 10 s).
   */
  static List<String> index(Rest rest, String index, int from, int to, int words) throws IOException {
    List<String> acknowledged = new ArrayList<>();
    for (int start = from; start < to; start += 1000) {
      StringBuilder bulk = new StringBuilder();
      for (int i = start; i < Math.min(to, start + 1000); i++) {
        bulk.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n");
        StringBuilder body = new StringBuilder("doc " + i + " term" + (i % TERMS));
        for (int w = 0; w < words; w++) {
          body.append(" w").append((i * 7919L + w * 104729L) % 200_003);
        }
        bulk.append(Rest.JSON.writeValueAsString(
                Map.of("body", body.toString(), "tag", "t" + (i % 7), "suggest", "doc" + i)))
            .append('\n');
      }
      JsonNode response = rest.bulk("/" + index + "/_bulk?timeout=10s", bulk.toString()).ok().body();
      JsonNode items = response.get("items");
      for (JsonNode item : items) {
        JsonNode result = item.get("index");
        if (!result.has("error")) {
          acknowledged.add(result.get("_id").asText());
        }
      }
      if (response.get("errors").asBoolean()) {
        break;
      }
    }
    return acknowledged;
  }

  /** Hits of a query-string query (exact total). */
  static long count(Rest rest, String index, String query) throws IOException {
    String body = """
        {"size": 0, "track_total_hits": true, "query": {"query_string": {"query": "%s"}}}
        """.formatted(query);
    return rest.post("/" + index + "/_search", body).ok().body().at("/hits/total/value").asLong();
  }

  /** Documents with term{@code k} among the first {@code n}. */
  static long expectedTermCount(int n, int k) {
    return n / TERMS + (k < n % TERMS ? 1 : 0);
  }

  /** Waits for the index (or cluster, if null) to reach {@code status}; fails otherwise. */
  static void waitForStatus(Rest rest, String index, String status) throws IOException {
    String path = "/_cluster/health" + (index == null ? "" : "/" + index)
        + "?wait_for_status=" + status + "&timeout=120s&wait_for_no_initializing_shards=true";
    JsonNode health = rest.get(path).body();
    if (health.path("timed_out").asBoolean(true)) {
      throw new AssertionError("index " + index + " did not reach " + status + ": " + health
          + "\nallocation: " + rest.get("/_cluster/allocation/explain").body());
    }
  }
}
