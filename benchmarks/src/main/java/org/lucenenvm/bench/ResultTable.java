package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Formats results as text shaped like SPIRIT's Table 1: one line per configuration, and for each
 * workload its P50, P95, P99 and mean latency in microseconds; followed by a summary table with
 * throughput, ingest rate, sizes and freshness per configuration.
 */
public final class ResultTable {

  private static final int CELL_WIDTH = 4 * 8 + 3;

  private ResultTable() {}

  /** Both tables as text. */
  public static String format(List<ResultRow> rows) {
    Map<String, Map<String, ResultRow>> byConfig = new LinkedHashMap<>();
    Set<String> categories = new LinkedHashSet<>();
    for (ResultRow r : rows) {
      byConfig.computeIfAbsent(key(r), k -> new LinkedHashMap<>()).put(r.category(), r);
      if (r.measured() && !r.category().equals(ResultRow.ALL)) {
        categories.add(r.category());
      }
    }
    int nameWidth = Math.max(14, byConfig.keySet().stream().mapToInt(String::length).max().orElse(0));
    StringBuilder sb = new StringBuilder();
    sb.append("Latency (microseconds): P50 / P95 / P99 / Avg per workload\n");
    List<String> header = new ArrayList<>();
    for (String c : categories) {
      header.add(center(c, CELL_WIDTH));
    }
    sb.append(pad("", nameWidth)).append(" | ").append(String.join(" | ", header)).append('\n');
    List<String> sub = new ArrayList<>();
    for (int i = 0; i < categories.size(); i++) {
      sub.add(String.format(Locale.ROOT, "%8s %8s %8s %8s", "P50", "P95", "P99", "Avg"));
    }
    sb.append(pad("", nameWidth)).append(" | ").append(String.join(" | ", sub)).append('\n');
    for (var entry : byConfig.entrySet()) {
      sb.append(pad(entry.getKey(), nameWidth)).append(" | ");
      ResultRow any = entry.getValue().values().iterator().next();
      if (!any.measured()) {
        sb.append(any.status()).append('\n');
        continue;
      }
      List<String> cells = new ArrayList<>();
      for (String c : categories) {
        ResultRow r = entry.getValue().get(c);
        cells.add(r == null || r.queries() == 0
            ? center("-", CELL_WIDTH)
            : String.format(Locale.ROOT, "%8s %8s %8s %8s", micros(r.p50Micros()), micros(r.p95Micros()), micros(r.p99Micros()), micros(r.meanMicros())));
      }
      sb.append(String.join(" | ", cells)).append('\n');
    }
    sb.append('\n').append("Summary per configuration\n");
    sb.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %12s %10s %14s %11s %10s %12s %11s%n",
        "configuration", "QPS(all)", "queries", "ingest docs/s", "index MiB", "heap MiB", "unseen mean", "unseen max"));
    for (var entry : byConfig.entrySet()) {
      ResultRow all = entry.getValue().get(ResultRow.ALL);
      if (all == null || !all.measured()) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %12.1f %10d %14.0f %11.1f %10.1f %12s %11s%n",
          entry.getKey(), all.qps(), all.queries(), all.ingestDocsPerSecond(), all.indexBytes() / 1048576.0, all.heapBytes() / 1048576.0,
          Double.isNaN(all.unseenMean()) ? "-" : String.format(Locale.ROOT, "%.1f", all.unseenMean()),
          all.unseenMax() < 0 ? "-" : Long.toString(all.unseenMax())));
    }
    appendPaces(sb, byConfig, nameWidth);
    return sb.toString();
  }

  /** The paced rows' target and achieved ingest rates, and whether each kept up; nothing if none was paced. */
  private static void appendPaces(StringBuilder sb, Map<String, Map<String, ResultRow>> byConfig, int nameWidth) {
    boolean header = false;
    for (var entry : byConfig.entrySet()) {
      ResultRow all = entry.getValue().get(ResultRow.ALL);
      IngestPace pace = all == null || !all.measured() ? null : all.ingestPace();
      if (pace == null) {
        continue;
      }
      if (!header) {
        sb.append('\n').append("Ingest paced at a fixed rate (--ingest-rate: document i due i/rate s after ingestion started)\n");
        sb.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %14s %16s %11s  %s%n", "configuration", "target docs/s", "achieved docs/s",
            "max lag ms", "kept up"));
        header = true;
      }
      sb.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %14.0f %16.0f %11.1f  %s%n", entry.getKey(), pace.targetDocsPerSecond(),
          pace.achievedDocsPerSecond(), pace.maxLagMillis(),
          pace.keptUp() ? "yes" : "NO: below " + Math.round(IngestPace.KEPT_UP_SHARE * 100) + " % of the rate, its queries ran at a lighter ingest load"));
    }
  }

  /** Display name of a row's configuration: {@code MODE configuration}. */
  static String key(ResultRow r) {
    return r.mode() + " " + r.configuration();
  }

  private static String micros(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String pad(String s, int width) {
    return String.format("%-" + width + "s", s);
  }

  private static String center(String s, int width) {
    int left = Math.max(0, (width - s.length()) / 2);
    return pad(" ".repeat(left) + s, width);
  }
}
