package org.lucenenvm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.lucenenvm.server.ApiClient;
import org.lucenenvm.server.ApiException;
import org.lucenenvm.server.ByteSize;
import org.lucenenvm.server.IndexRegistry;
import org.lucenenvm.server.ProgressMeter;
import org.lucenenvm.server.SearchServer;
import org.lucenenvm.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo ({@code scripts/demo.sh}): starts the search server embedded on a pool under {@code
 * ./data}, ingests a synthetic corpus through the HTTP API with a {@link ProgressMeter}, shows
 * while ingesting that a new document is found by the very next query, times a few queries (cold
 * and warm), restarts the server and shows the index back (reopen time and document count), and
 * prints what it did.
 */
@Command(
    name = "server-demo",
    mixinStandardHelpOptions = true,
    description = "lucene-nvm demo: real-time ingest and search over HTTP, then an instant restart.")
public final class ServerDemo implements Callable<Integer> {
  private static final String INDEX = "demo";
  private static final int WARMUP_ROUNDS = 200;
  private static final int TIMED_RUNS = 21;

  @Option(names = "--data-dir", description = "Where the pool file goes (default: ${DEFAULT-VALUE}).", defaultValue = "data")
  Path dataDir;

  @Option(names = "--docs", description = "Documents to ingest (default: ${DEFAULT-VALUE}).", defaultValue = "20000")
  int docs;

  @Option(names = "--batch", description = "Documents per bulk request (default: ${DEFAULT-VALUE}).", defaultValue = "500")
  int batch;

  @Option(names = "--pool-size", converter = ByteSize.class, description = "Pool file size (default: ${DEFAULT-VALUE}).", defaultValue = "256m")
  long poolSize;

  @Option(names = "--partitions", description = "Executors of the demo index (default: ${DEFAULT-VALUE}).", defaultValue = "2")
  int partitions;

  @Option(names = "--codec", description = "Segment codec (default: ${DEFAULT-VALUE}).", defaultValue = "Lucene104")
  String codec;

  private final PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    if (docs < 1 || batch < 1) {
      throw new IllegalArgumentException("--docs and --batch must be >= 1");
    }
    ServerConfig config =
        ServerConfig.builder()
            .port(0)
            .dataDir(dataDir)
            .poolSizeBytes(poolSize)
            .segmentSize(2_000)
            .dramBudgetBytes(8L << 20)
            .codec(codec)
            .build();
    SyntheticCorpus corpus = new SyntheticCorpus(20_000);
    out.println("lucene-nvm demo: real-time search server on an (emulated) NVM pool");
    long ingested;
    JsonNode before;
    SearchServer server = new SearchServer(config).start();
    try (ApiClient api = new ApiClient(server.uri(), null)) {
      out.printf("%n1. Server started at %s (embedded, loopback only)%n", server.uri());
      if (server.indexes().contains(INDEX)) {
        api.dropIndex(INDEX);
        out.printf("   dropped the '%s' index left by a previous run%n", INDEX);
      }
      api.createIndex(INDEX, SyntheticCorpus.indexSpec(partitions));
      out.printf(
          "   created index '%s': %d partitions, codec %s, pool %s (%,d MiB)%n",
          INDEX, partitions, codec, dataDir.resolve(INDEX + IndexRegistry.POOL_SUFFIX), poolSize >> 20);

      ingested = ingest(api, corpus);
      showQueries(api, corpus);
      before = api.stats(INDEX);
      showStats(before);
    } finally {
      out.printf("%n5. Restart: closing the server (crash-consistent mode: segments stay in the pool, the live%n"
              + "   segment's operations stay in the pool's ingest log)...%n");
      long closeStart = System.nanoTime();
      server.close();
      out.printf("   closed in %,.0f ms%n", (System.nanoTime() - closeStart) / 1e6);
    }

    long startNanos = System.nanoTime();
    server = new SearchServer(config).start();
    double startMillis = (System.nanoTime() - startNanos) / 1e6;
    try (ApiClient api = new ApiClient(server.uri(), null)) {
      JsonNode after = api.stats(INDEX);
      out.printf(
          "   restarted in %,.0f ms; index '%s' reopened from its pool in %,.1f ms%n"
              + "   (engraved segments mapped in place, the ingest log's tail replayed)%n",
          startMillis, INDEX, after.get("openMillis").asDouble());
      long docsBefore = before.get("docs").asLong();
      long docsAfter = after.get("docs").asLong();
      out.printf(
          "   documents: %,d before, %,d after the restart%s%n",
          docsBefore, docsAfter, docsBefore == docsAfter ? " (all there)" : "  <-- MISMATCH");
      String word = corpus.word(7);
      JsonNode r = api.search(INDEX, "body:" + word, 3);
      out.printf(
          "   query body:%s after restart (first query, cold): %,d hits in %,d µs%n",
          word, r.get("total_hits").asLong(), r.get("took_us").asLong());
      probe(api, 5);
      out.printf(
          "%nDone: ingested %,d documents over HTTP, each searchable on acknowledgement;"
              + " restart took %,.0f ms. Pool: %s%n",
          ingested, startMillis, dataDir.resolve(INDEX + IndexRegistry.POOL_SUFFIX).toAbsolutePath());
      out.println("Run the server yourself: scripts/server.sh --help (API in search-server/README.md)");
      return docsBefore == docsAfter ? 0 : 1;
    } finally {
      server.close();
    }
  }

  /** Bulk-ingests the corpus; a few times on the way, adds a probe document and finds it at once. */
  private long ingest(ApiClient api, SyntheticCorpus corpus) throws Exception {
    out.printf(
        "%n2. Ingesting %,d synthetic documents through POST /indexes/%s/_bulk (%d per request)%n",
        docs, INDEX, batch);
    int batches = (docs + batch - 1) / batch;
    int probeEvery = Math.max(1, batches / 4);
    long acknowledged = 0;
    int probes = 0;
    try (ProgressMeter meter = new ProgressMeter(out, ProgressMeter.isTerminal(), "   ingest", docs, "docs")) {
      for (int b = 0; b < batches; b++) {
        long from = (long) b * batch;
        long to = Math.min(docs, from + batch);
        JsonNode reply = api.bulk(INDEX, corpus.batch(from, to));
        requireEveryLineApplied(reply);
        long n = reply.get("acknowledged").asLong();
        acknowledged += n;
        meter.advance(n);
        if ((b + 1) % probeEvery == 0 && probes < 4) {
          meter.clear();
          probe(api, ++probes);
        }
      }
    }
    return acknowledged + probes;
  }

  /** Throws the first failed line of a {@code _bulk} reply as the server's refusal. */
  private static void requireEveryLineApplied(JsonNode bulkReply) {
    for (JsonNode item : bulkReply.get("items")) {
      if (item.has("error")) {
        throw new ApiException(
            item.get("status").asInt(),
            "bulk line " + item.get("line").asInt() + " failed: " + item.get("error").asText());
      }
    }
  }

  private void probe(ApiClient api, int n) throws Exception {
    String word = "nvmprobe" + n + Long.toString(System.nanoTime() % 1_000_000, 36);
    String doc = "{\"id\":\"probe-" + word + "\",\"title\":\"probe " + word + "\",\"body\":\"a fresh document\"}";
    long t0 = System.nanoTime();
    api.add(INDEX, doc);
    long t1 = System.nanoTime();
    JsonNode r = api.search(INDEX, "title:" + word, 1);
    long t2 = System.nanoTime();
    boolean found = r.get("total_hits").asLong() == 1;
    out.printf(
        "   real-time check %d: added '%s' (%,d µs), searched it right away: %s (%,d µs round trip)%n",
        n, word, (t1 - t0) / 1000, found ? "found" : "NOT FOUND", (t2 - t1) / 1000);
  }

  /**
   * Runs each query once on the cold JVM, then warms up with {@value #WARMUP_ROUNDS} rounds of all
   * queries, then times {@value #TIMED_RUNS} more runs of each: prints the first (cold) and the
   * median warm server time ({@code took_us}).
   */
  private void showQueries(ApiClient api, SyntheticCorpus corpus) throws Exception {
    out.printf("%n3. Queries (Lucene syntax over title and body; tag is a keyword)%n");
    List<String> queries =
        List.of(
            corpus.word(3),
            "title:" + corpus.word(40) + " AND body:" + corpus.word(2),
            "\"" + corpus.word(0) + " " + corpus.word(1) + "\"",
            "tag:science AND " + corpus.word(120),
            corpus.word(900) + " OR " + corpus.word(1500));
    long[] cold = new long[queries.size()];
    for (int i = 0; i < queries.size(); i++) {
      cold[i] = api.search(INDEX, queries.get(i), 3).get("took_us").asLong();
    }
    out.printf(
        "   server time per query: first run on a cold JVM, then the median of %d runs after a"
            + " warm-up of %,d queries%n",
        TIMED_RUNS, WARMUP_ROUNDS * queries.size());
    for (int round = 0; round < WARMUP_ROUNDS; round++) {
      for (String q : queries) {
        api.search(INDEX, q, 3);
      }
    }
    for (int i = 0; i < queries.size(); i++) {
      String q = queries.get(i);
      long[] warm = new long[TIMED_RUNS];
      JsonNode r = null;
      for (int run = 0; run < TIMED_RUNS; run++) {
        r = api.search(INDEX, q, 3);
        warm[run] = r.get("took_us").asLong();
      }
      Arrays.sort(warm);
      JsonNode hits = r.get("hits");
      out.printf(
          Locale.ROOT,
          "   %-36s %,7d hits%s  cold %,6d µs, warm %,5d µs; top: %s%n",
          q,
          r.get("total_hits").asLong(),
          r.get("total_hits_exact").asBoolean() ? "" : "+",
          cold[i],
          warm[TIMED_RUNS / 2],
          hits.isEmpty()
              ? "-"
              : hits.get(0).get("id").asText() + String.format(Locale.ROOT, " (%.2f)", hits.get(0).get("score").asDouble()));
    }
  }

  private void showStats(JsonNode s) {
    out.printf("%n4. Stats (GET /indexes/%s/_stats)%n", INDEX);
    out.printf("   documents %,d; segments by state %s; by query tier %s%n",
        s.get("docs").asLong(), compact(s.get("segmentsByState")), compact(s.get("segmentsByTier")));
    out.printf(
        "   DRAM segments %,.1f MiB, live segments %,.1f MiB, NVM segments %,.1f MiB, pool free %,.0f of %,.0f MiB%n",
        s.get("dramBytes").asLong() / 1048576.0,
        s.get("liveSegmentBytes").asLong() / 1048576.0,
        s.get("nvmBytes").asLong() / 1048576.0,
        s.get("poolFreeBytes").asLong() / 1048576.0,
        s.get("poolBytes").asLong() / 1048576.0);
    StringBuilder stages = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = s.get("stages").properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      stages.append(String.format(Locale.ROOT, "%s %,.0f ms (%d items)%s", e.getKey(),
          e.getValue().get("busyMillis").asDouble(), e.getValue().get("items").asLong(), it.hasNext() ? ", " : ""));
    }
    out.printf("   pipeline busy time: %s%n", stages);
  }

  private static String compact(JsonNode node) {
    return node.toString().replace("\"", "").replace(",", ", ");
  }

  /** Runs the demo. */
  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new ServerDemo());
    cmd.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          System.err.println("demo failed: " + e);
          return 1;
        });
    System.exit(cmd.execute(args));
  }
}
