package org.lucenenvm.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request counts per (route, method, status) and request time per route, for {@code /metrics}.
 * Routes are templates ({@code /indexes/{name}/_search}), so the label set stays small.
 */
final class HttpMetrics {
  /** A route and method with its status. */
  record Key(String route, String method, int status) {}

  /** Requests and their total time. */
  static final class Timing {
    final LongAdder count = new LongAdder();
    final LongAdder nanos = new LongAdder();
  }

  private final Map<Key, LongAdder> requests = new ConcurrentHashMap<>();
  private final Map<String, Timing> timings = new ConcurrentHashMap<>();

  void record(String route, String method, int status, long nanos) {
    requests.computeIfAbsent(new Key(route, method, status), k -> new LongAdder()).increment();
    Timing t = timings.computeIfAbsent(route, r -> new Timing());
    t.count.increment();
    t.nanos.add(nanos);
  }

  Map<Key, LongAdder> requests() {
    return requests;
  }

  Map<String, Timing> timings() {
    return timings;
  }
}
