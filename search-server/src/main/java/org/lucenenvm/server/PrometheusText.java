package org.lucenenvm.server;

import java.io.IOException;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Renders the server's metrics in the Prometheus text exposition format (version 0.0.4): HTTP
 * requests by route, method and status, request seconds by route, and per index the gauges and
 * counters of {@link IndexStats}. All names start with {@code lucenenvm_}.
 */
final class PrometheusText {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder(4096);

  private PrometheusText() {}

  static String render(HttpMetrics http, IndexRegistry registry) throws IOException {
    PrometheusText t = new PrometheusText();
    t.header("lucenenvm_http_requests_total", "counter", "HTTP requests by route, method and status");
    http.requests().entrySet().stream()
        .sorted(
            Map.Entry.comparingByKey(
                Comparator.comparing(HttpMetrics.Key::route)
                    .thenComparing(HttpMetrics.Key::method)
                    .thenComparingInt(HttpMetrics.Key::status)))
        .forEach(
            e ->
                t.sample(
                    "lucenenvm_http_requests_total",
                    labels(
                        "route", e.getKey().route(),
                        "method", e.getKey().method(),
                        "status", Integer.toString(e.getKey().status())),
                    e.getValue().sum()));
    t.header("lucenenvm_http_request_seconds", "summary", "HTTP request time by route");
    new TreeMap<>(http.timings())
        .forEach(
            (route, timing) -> {
              t.sample("lucenenvm_http_request_seconds_count", labels("route", route), timing.count.sum());
              t.sample("lucenenvm_http_request_seconds_sum", labels("route", route), timing.nanos.sum() / 1e9);
            });
    Map<String, IndexStats> stats = new TreeMap<>();
    for (OpenIndex index : registry.list()) {
      stats.put(index.definition().name(), IndexStats.of(index));
    }
    t.gauge("lucenenvm_index_docs", "Live documents", stats, IndexStats::docs);
    t.gauge("lucenenvm_index_dram_bytes", "Read-optimized segment bytes in DRAM", stats, IndexStats::dramBytes);
    t.gauge("lucenenvm_index_live_segment_bytes", "Live segment bytes (approximate)", stats, IndexStats::liveSegmentBytes);
    t.gauge("lucenenvm_index_nvm_bytes", "Segment file bytes in the NVM pool", stats, IndexStats::nvmBytes);
    t.gauge("lucenenvm_index_pool_bytes", "Size of the NVM pool file", stats, IndexStats::poolBytes);
    t.gauge("lucenenvm_index_pool_free_bytes", "Free bytes of the NVM pool", stats, IndexStats::poolFreeBytes);
    t.header("lucenenvm_index_ingested_docs_total", "counter", "Documents acknowledged since start");
    stats.forEach((name, s) -> t.sample("lucenenvm_index_ingested_docs_total", labels("index", name), s.ingestedDocs()));
    t.header("lucenenvm_index_queries_total", "counter", "Queries run since start");
    stats.forEach((name, s) -> t.sample("lucenenvm_index_queries_total", labels("index", name), s.queries()));
    t.header("lucenenvm_index_segments", "gauge", "Segments by life-cycle state");
    stats.forEach(
        (name, s) ->
            s.segmentsByState()
                .forEach(
                    (state, n) ->
                        t.sample("lucenenvm_index_segments", labels("index", name, "state", state.name()), n)));
    t.header("lucenenvm_pipeline_busy_seconds_total", "counter", "Time pipeline stages spent working");
    stats.forEach(
        (name, s) ->
            s.stages()
                .forEach(
                    (stage, w) ->
                        t.sample(
                            "lucenenvm_pipeline_busy_seconds_total",
                            labels("index", name, "stage", stage),
                            w.busyMillis() / 1e3)));
    return t.out.toString();
  }

  private void gauge(
      String name,
      String help,
      Map<String, IndexStats> stats,
      ToLongFunction<IndexStats> value) {
    header(name, "gauge", help);
    stats.forEach((index, s) -> sample(name, labels("index", index), value.applyAsLong(s)));
  }

  private void header(String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private void sample(String name, String labels, double value) {
    out.append(name).append(labels).append(' ');
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      out.append((long) value);
    } else {
      out.append(String.format(Locale.ROOT, "%.6f", value));
    }
    out.append('\n');
  }

  private static String labels(String... pairs) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < pairs.length; i += 2) {
      if (i > 0) {
        b.append(',');
      }
      b.append(pairs[i]).append("=\"").append(escape(pairs[i + 1])).append('"');
    }
    return b.append('}').toString();
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
