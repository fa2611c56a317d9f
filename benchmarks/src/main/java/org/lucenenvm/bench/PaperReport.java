package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Writes an experiment's {@link PaperRatio}s: {@value #MARKDOWN} (a Markdown table, paper beside
 * measured, with the source of each paper figure), {@value #CSV} ({@code paper_row, our_row,
 * workload, metric, paper_ratio, measured_ratio, source}; an empty ratio does not exist) and
 * {@value #PNG} (both ratios of the plotted rows that have both, log scale).
 */
final class PaperReport {

  static final String MARKDOWN = "paper.md";
  static final String CSV = "paper.csv";
  static final String PNG = "paper-ratios.png";

  private PaperReport() {}

  /** Writes the three files into {@code dir}. */
  static void write(String experiment, String context, List<PaperRatio> ratios, Path dir) throws IOException {
    write(experiment, context, ratios, r -> true, "", dir);
  }

  /** As {@link #write(String, String, List, Path)}, charting only the ratios {@code plotted} accepts ({@code plotNote} says which). */
  static void write(String experiment, String context, List<PaperRatio> ratios, Predicate<PaperRatio> plotted, String plotNote, Path dir) throws IOException {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(experiment).append(": paper against measured\n\n").append(context).append("\n\n");
    md.append("Ratios, not absolute values: the paper's hardware (Optane PM, many cores) is not this machine's. ")
        .append("A ratio > 1 is slower (latency) or faster (QPS) than the reference named in the metric.\n\n");
    md.append("| paper | measured here | workload | metric | paper | measured | source |\n|---|---|---|---|---:|---:|---|\n");
    for (PaperRatio r : ratios) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n",
          r.paperRow(), r.ourRow(), r.workload(), r.metric(), ratio(r.paper()), ratio(r.measured()), r.source()));
    }
    Files.writeString(dir.resolve(MARKDOWN), md.toString(), StandardCharsets.UTF_8);
    List<List<String>> rows = new ArrayList<>();
    for (PaperRatio r : ratios) {
      rows.add(List.of(r.paperRow(), r.ourRow(), r.workload(), r.metric(), number(r.paper()), number(r.measured()), r.source()));
    }
    CsvTable.write(dir.resolve(CSV), List.of("paper_row", "our_row", "workload", "metric", "paper_ratio", "measured_ratio", "source"), rows);
    draw(experiment + plotNote, ratios.stream().filter(r -> r.paper() > 0 && r.measured() > 0 && plotted.test(r)).toList(), dir.resolve(PNG));
  }

  private static void draw(String experiment, List<PaperRatio> ratios, Path file) throws IOException {
    if (ratios.isEmpty()) {
      System.err.println("paper: no row has both a paper and a measured ratio; " + file + " not drawn");
      return;
    }
    System.setProperty("java.awt.headless", "true");
    List<String> labels = ratios.stream().map(r -> r.paperRow() + " " + r.workload() + " " + r.metric().split(" ")[0] + " " + r.ourRow().replaceAll(".* ", "")).toList();
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 28 * labels.size() + 300)).height(640)
        .title(experiment + ": paper ratio against measured ratio (log scale)").yAxisTitle("ratio").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLabelRotation(90);
    chart.getStyler().setYAxisLogarithmic(true);
    double min = ratios.stream().mapToDouble(r -> Math.min(r.paper(), r.measured())).min().orElse(1);
    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
    chart.addSeries("paper", labels, ratios.stream().map(r -> (Number) r.paper()).toList());
    chart.addSeries("measured", labels, ratios.stream().map(r -> (Number) r.measured()).toList());
    String name = file.getFileName().toString();
    BitmapEncoder.saveBitmap(chart, file.resolveSibling(name.substring(0, name.length() - ".png".length())).toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 0.1 ? "%.2f" : "%.2g", v);
  }

  private static String number(double v) {
    return CsvTable.number(v, 4);
  }
}
