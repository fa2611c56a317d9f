package org.lucenenvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Ingest and search through OpenSearch's REST API on a running node, once per configuration
 * (codec + store type), e.g. OpenSearch's {@code default} codec on the {@code fs} store against
 * the lucene-nvm {@code nvm} codec on the {@code nvm} store. Per configuration: documents per
 * second of {@code _bulk} ingest (until refreshed and flushed), then for every task category of
 * the tasks file the client-side latency percentiles of single-threaded {@code _search} requests
 * (top 10, {@code query_string} over the body field). Latencies include HTTP and JSON; the
 * server-side {@code took} is reported beside them.
 */
@Command(name = "opensearch-bench", mixinStandardHelpOptions = true,
    description = "REST ingest and search benchmark of index configurations on a running OpenSearch node.")
public final class OpenSearchRestBench implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--url", defaultValue = "http://127.0.0.1:9200", description = "Node URL (default ${DEFAULT-VALUE}).")
  String url;

  @Option(names = "--corpus", required = true, description = "Line-doc corpus (scripts/bench.sh generate).")
  Path corpus;

  @Option(names = "--tasks", required = true, description = "luceneutil .tasks file.")
  Path tasks;

  @Option(names = "--docs", defaultValue = "100000", description = "Documents to ingest (default ${DEFAULT-VALUE}).")
  long docs;

  @Option(names = "--configs", split = ",", defaultValue = "default:fs,nvm:nvm",
      description = "codec:storeType pairs (default ${DEFAULT-VALUE}).")
  List<String> configs;

  @Option(names = "--pool-size", defaultValue = "2gb", description = "index.store.nvm.pool.size for nvm stores (default ${DEFAULT-VALUE}).")
  String poolSize;

  @Option(names = "--bulk-docs", defaultValue = "2000", description = "Documents per _bulk request (default ${DEFAULT-VALUE}).")
  int bulkDocs;

  @Option(names = "--queries", defaultValue = "500", description = "Timed queries per category (default ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--warmup", defaultValue = "200", description = "Untimed queries per category first (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--rounds", defaultValue = "1",
      description = "Times the whole list of configurations is run, alternating them (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--out", description = "CSV file to write (one row per configuration and category).")
  Path out;

  private final HttpClient client = HttpClient.newHttpClient();

  public static void main(String[] args) {
    System.exit(new CommandLine(new OpenSearchRestBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Map<String, List<String>> byCategory = new LinkedHashMap<>();
    for (Task task : TaskFile.read(tasks)) {
      byCategory.computeIfAbsent(task.category(), c -> new ArrayList<>()).add(task.query());
    }
    List<String> rows = new ArrayList<>();
    rows.add("round,codec,store,category,docs_per_s,queries,p50_us,p99_us,took_p50_ms,took_p99_ms");
    for (int round = 1; round <= rounds; round++) {
      for (String config : configs) {
        runConfiguration(round, config, byCategory, rows);
      }
    }
    if (out != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
      try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out))) {
        rows.forEach(writer::println);
      }
      System.out.println("wrote " + out);
    }
    return 0;
  }

  private void runConfiguration(int round, String config, Map<String, List<String>> byCategory, List<String> rows)
      throws IOException {
    String[] parts = config.split(":");
    if (parts.length != 2) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--configs entry must be codec:store, got " + config);
    }
    String index = "bench-" + parts[0].toLowerCase() + "-" + parts[1].toLowerCase();
    double docsPerSecond = ingest(index, parts[0], parts[1]);
    System.out.printf("round %d, %s codec + %s store: %.0f docs/s%n", round, parts[0], parts[1], docsPerSecond);
    for (Map.Entry<String, List<String>> category : byCategory.entrySet()) {
      Histogram client = new Histogram(3);
      Histogram took = new Histogram(3);
      search(index, category.getValue(), warmup, null, null);
      search(index, category.getValue(), queries, client, took);
      String row = String.format("%d,%s,%s,%s,%.0f,%d,%d,%d,%d,%d", round, parts[0], parts[1], category.getKey(),
          docsPerSecond, client.getTotalCount(), client.getValueAtPercentile(50) / 1000,
          client.getValueAtPercentile(99) / 1000, took.getValueAtPercentile(50), took.getValueAtPercentile(99));
      System.out.println("  " + row);
      rows.add(row);
    }
    send("DELETE", "/" + index, null, "application/json");
  }

  private double ingest(String index, String codec, String store) throws IOException {
    send("DELETE", "/" + index, null, "application/json");
    String settings = """
        {"settings": {"index.codec": "%s", "index.store.type": "%s", %s
                      "number_of_shards": 1, "number_of_replicas": 0, "refresh_interval": "-1"},
         "mappings": {"properties": {"title": {"type": "text"}, "date": {"type": "keyword"},
                                     "body": {"type": "text"}}}}
        """.formatted(codec, store, store.equals("nvm") ? "\"index.store.nvm.pool.size\": \"" + poolSize + "\"," : "");
    ok(send("PUT", "/" + index, settings, "application/json"));
    long start = System.nanoTime();
    long sent = 0;
    try (LineDocReader reader = LineDocReader.open(corpus)) {
      StringBuilder bulk = new StringBuilder();
      int inBulk = 0;
      for (LineDoc doc = reader.next(); doc != null && sent < docs; doc = reader.next()) {
        bulk.append("{\"index\":{}}\n").append(JSON.writeValueAsString(
            Map.of("title", doc.title(), "date", doc.date(), "body", doc.body()))).append('\n');
        sent++;
        if (++inBulk == bulkDocs) {
          bulk(index, bulk);
          inBulk = 0;
        }
      }
      if (inBulk > 0) {
        bulk(index, bulk);
      }
    }
    ok(send("POST", "/" + index + "/_refresh", null, "application/json"));
    ok(send("POST", "/" + index + "/_flush", null, "application/json"));
    return sent / ((System.nanoTime() - start) / 1e9);
  }

  private void bulk(String index, StringBuilder body) throws IOException {
    JsonNode response = ok(send("POST", "/" + index + "/_bulk", body.toString(), "application/x-ndjson"));
    if (response.get("errors").asBoolean()) {
      String text = response.toString();
      throw new IOException("bulk request had failed items: " + text.substring(0, Math.min(2000, text.length())));
    }
    body.setLength(0);
  }

  private void search(String index, List<String> queryTexts, int count, Histogram client, Histogram took)
      throws IOException {
    for (int i = 0; i < count; i++) {
      String query = queryTexts.get(i % queryTexts.size());
      String body = JSON.writeValueAsString(Map.of("size", 10, "query",
          Map.of("query_string", Map.of("query", query, "default_field", "body"))));
      long start = System.nanoTime();
      JsonNode response = ok(send("POST", "/" + index + "/_search", body, "application/json"));
      long nanos = System.nanoTime() - start;
      if (client != null) {
        client.recordValue(nanos);
        took.recordValue(response.get("took").asLong());
      }
    }
  }

  private JsonNode ok(HttpResponse<String> response) throws IOException {
    if (response.statusCode() >= 300) {
      throw new IOException("HTTP " + response.statusCode() + " from " + response.uri() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }

  private HttpResponse<String> send(String method, String path, String body, String contentType) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + path))
        .timeout(Duration.ofMinutes(5))
        .header("Content-Type", contentType)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
