package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * Draws results as PNG bar charts with XChart, log scale: {@code latency-p50.png} and {@code
 * latency-p99.png} have one group of bars per workload and one bar per configuration; {@code qps.png}
 * has one bar per configuration for all workloads together (per-workload QPS means different things
 * in NC and WRT mode, see {@link ResultRow}). Absent configurations are left out; a workload a
 * configuration has no measurement of shows no bar.
 */
public final class ResultPlots {

  /** Names of the files {@link #draw} writes. */
  public static final List<String> FILES = List.of("latency-p50.png", "latency-p99.png", "qps.png");

  private ResultPlots() {}

  /** Writes the charts into {@code outDir}; returns their paths. */
  public static List<Path> draw(List<ResultRow> rows, Path outDir, String subtitle) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<ResultRow> measured = rows.stream().filter(r -> r.measured() && r.queries() > 0).toList();
    List<ResultRow> workloads = measured.stream().filter(r -> !r.category().equals(ResultRow.ALL)).toList();
    List<ResultRow> overall = measured.stream().filter(r -> r.category().equals(ResultRow.ALL)).toList();
    if (workloads.isEmpty() || overall.isEmpty()) {
      throw new IllegalArgumentException("no measured rows to plot");
    }
    List<Path> files = new ArrayList<>();
    files.add(save(chart("P50 latency (µs, log scale)", "workload", "µs", workloads, ResultRow::p50Micros, subtitle), outDir.resolve(FILES.get(0))));
    files.add(save(chart("P99 latency (µs, log scale)", "workload", "µs", workloads, ResultRow::p99Micros, subtitle), outDir.resolve(FILES.get(1))));
    files.add(save(chart("Throughput over all workloads (queries/s, log scale)", "all workloads", "QPS", overall, ResultRow::qps, subtitle), outDir.resolve(FILES.get(2))));
    return files;
  }

  private static CategoryChart chart(
      String title, String xTitle, String yTitle, List<ResultRow> rows, ToDoubleFunction<ResultRow> value, String subtitle) {
    Set<String> categories = new LinkedHashSet<>();
    Map<String, Map<String, Double>> series = new LinkedHashMap<>();
    for (ResultRow r : rows) {
      categories.add(r.category());
      series.computeIfAbsent(ResultTable.key(r), k -> new LinkedHashMap<>()).put(r.category(), value.applyAsDouble(r));
    }
    String fullTitle = subtitle.isEmpty() ? title : title + " — " + subtitle;
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(Math.max(Math.max(900, 130 * categories.size() + 200), 8 * fullTitle.length() + 300))
            .height(560)
            .title(fullTitle)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    CategoryStyler styler = chart.getStyler();
    styler.setLegendPosition(Styler.LegendPosition.OutsideE);
    styler.setYAxisLogarithmic(true);
    styler.setXAxisLabelRotation(30);
    List<String> xs = List.copyOf(categories);
    double min = Double.MAX_VALUE;
    for (var e : series.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (String c : xs) {
        Double v = e.getValue().get(c);
        ys.add(v != null && v > 0 ? v : null);
        min = v != null && v > 0 ? Math.min(min, v) : min;
      }
      chart.addSeries(e.getKey(), xs, ys);
    }
    if (min == Double.MAX_VALUE) {
      throw new IllegalArgumentException("nothing to plot for " + title + ": no positive value");
    }
    // XChart's log axis needs an explicit lower bound (bars start there); a decade lower if the
    // smallest bar would otherwise be barely visible.
    double decade = Math.pow(10, Math.floor(Math.log10(min)));
    styler.setYAxisMin(min / decade < 3 ? decade / 10 : decade);
    return chart;
  }

  private static Path save(CategoryChart chart, Path file) throws IOException {
    String name = file.getFileName().toString();
    BitmapEncoder.saveBitmap(chart, file.resolveSibling(name.substring(0, name.length() - ".png".length())).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
