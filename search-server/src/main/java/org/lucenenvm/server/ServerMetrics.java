package org.lucenenvm.server;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The server's metrics, kept and written by the Prometheus Java client: HTTP requests by route
 * template, method and status ({@code lucenenvm_http_requests_total}), request latency by route
 * ({@code lucenenvm_http_request_seconds}, a histogram), the per-index figures of {@link
 * IndexMetrics} and the client's standard JVM metrics ({@code jvm_*}, {@code process_*}). Routes
 * are templates ({@code /indexes/{name}/_search}), so the label sets stay small. One registry per
 * server, so embedded servers do not share counts.
 */
final class ServerMetrics {
  /** Latency buckets from 100 µs to 30 s. */
  private static final double[] LATENCY_BUCKETS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter requests =
      Counter.builder()
          .name("lucenenvm_http_requests_total")
          .help("HTTP requests by route, method and status")
          .labelNames("route", "method", "status")
          .register(registry);
  private final Histogram latency =
      Histogram.builder()
          .name("lucenenvm_http_request_seconds")
          .help("HTTP request time by route")
          .labelNames("route")
          .classicOnly()
          .classicUpperBounds(LATENCY_BUCKETS)
          .register(registry);

  ServerMetrics(IndexRegistry indexes) {
    JvmMetrics.builder().register(registry);
    registry.register(new IndexMetrics(indexes));
  }

  /** Counts one request to {@code route} and its time. */
  void record(String route, String method, int status, long nanos) {
    requests.labelValues(route, method, Integer.toString(status)).inc();
    latency.labelValues(route).observe(nanos / 1e9);
  }

  /** The content type of {@link #scrape()}. */
  String contentType() {
    return writer.getContentType();
  }

  /** Every metric in the Prometheus text format. */
  String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    writer.write(out, registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }
}
