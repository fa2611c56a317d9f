package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The result of {@code compare}: per category a {@link CategoryComparison} of the JVMs' rows, and
 * the files it is written to.
 *
 * <ul>
 *   <li>{@value #TABLE} (also stdout): a header (sides, JVMs, documents, CPUs, load averages at the
 *       start, and a warning if the 1-minute load average was above 1 then; WRT with {@code
 *       --ingest-rate}: the rate, and a warning naming the JVMs that did not keep up), a table
 *       shaped like luceneutil's ({@code Task, QPS baseline, StdDev, QPS candidate, StdDev, Pct
 *       diff, p-value}) with the ratio of the sides' median QPS, the medians of the JVMs' P50 and
 *       P99 latencies and the hit check, and one line per JVM with its load averages at start and
 *       end (WRT: and its ingest rate, paced: whether it kept up).
 *   <li>{@value #CSV}: {@code category, baseline, candidate, jvms_per_side, baseline_qps_mean,
 *       baseline_qps_sd, candidate_qps_mean, candidate_qps_sd, qps_diff_pct, p_value,
 *       baseline_p50_us, candidate_p50_us, baseline_p99_us, candidate_p99_us, hit_queries,
 *       hit_queries_differing, baseline_qps_median, candidate_qps_median}; latencies are medians
 *       over the JVMs; an empty field does not apply.
 *   <li>{@value #JVMS_CSV}: {@code jvm, side, configuration, started, load1_start, load5_start,
 *       load15_start, load1_end, load5_end, load15_end, seconds, ingest_docs_per_s,
 *       ingest_target_docs_per_s, ingest_kept_up}, one line per JVM in run order (the ingest
 *       fields empty where they do not apply: NC, unpaced).
 *   <li>{@value #PNG}: QPS mean per category and side, the standard deviation as error bars.
 * </ul>
 */
final class CompareReport {

  static final String TABLE = "table.txt";
  static final String CSV = "compare.csv";
  static final String JVMS_CSV = "jvms.csv";
  static final String PNG = "compare-qps.png";

  /** A 1-minute load average above this at the start gets a warning in the header. */
  static final double LOAD_WARNING = 1.0;

  private final String baseline;
  private final String candidate;
  private final int jvmsPerSide;
  private final long docs;
  private final String mode;
  private final int cpus;
  private final MachineLoad loadAtStart;
  private final List<Double> ingestRates;
  private final List<JvmRun> runs;
  private final List<CategoryComparison> comparisons;

  CompareReport(String baseline, String candidate, int jvmsPerSide, long docs, String mode, int cpus, MachineLoad loadAtStart, List<Double> ingestRates, List<JvmRun> runs) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.jvmsPerSide = jvmsPerSide;
    this.docs = docs;
    this.mode = mode;
    this.cpus = cpus;
    this.loadAtStart = loadAtStart;
    this.ingestRates = List.copyOf(ingestRates);
    this.runs = List.copyOf(runs);
    this.comparisons = compare(runs);
  }

  /** The comparisons, one per category in task-file order, then {@value ResultRow#ALL}. */
  List<CategoryComparison> comparisons() {
    return comparisons;
  }

  private static List<CategoryComparison> compare(List<JvmRun> runs) {
    Set<String> categories = new LinkedHashSet<>();
    for (JvmRun run : runs) {
      run.rows().stream().filter(r -> r.measured() && !r.category().equals(ResultRow.ALL)).forEach(r -> categories.add(r.category()));
    }
    categories.add(ResultRow.ALL);
    JvmRun firstBaseline = first(runs, JvmSchedule.BASELINE);
    JvmRun firstCandidate = first(runs, JvmSchedule.CANDIDATE);
    List<CategoryComparison> result = new ArrayList<>();
    for (String category : categories) {
      HitIdentities.Difference hits = null;
      if (firstBaseline.hits() != null && firstCandidate.hits() != null) {
        hits = category.equals(ResultRow.ALL) ? totalDifference(categories, firstBaseline.hits(), firstCandidate.hits())
            : firstBaseline.hits().compare(category, firstCandidate.hits());
      }
      result.add(new CategoryComparison(category, side(runs, JvmSchedule.BASELINE, category), side(runs, JvmSchedule.CANDIDATE, category), hits));
    }
    return List.copyOf(result);
  }

  private static HitIdentities.Difference totalDifference(Set<String> categories, HitIdentities a, HitIdentities b) {
    int compared = 0;
    int differing = 0;
    for (String c : categories) {
      if (!c.equals(ResultRow.ALL)) {
        HitIdentities.Difference d = a.compare(c, b);
        compared += d.compared();
        differing += d.differing();
      }
    }
    return new HitIdentities.Difference(compared, differing);
  }

  private static JvmRun first(List<JvmRun> runs, int side) {
    return runs.stream().filter(r -> r.side() == side).findFirst().orElseThrow(() -> new IllegalStateException("no JVM of side " + side));
  }

  private static SideStatistics side(List<JvmRun> runs, int side, String category) {
    List<ResultRow> rows = new ArrayList<>();
    for (JvmRun run : runs) {
      if (run.side() != side) {
        continue;
      }
      ResultRow row = run.rows().stream().filter(r -> r.measured() && r.category().equals(category) && r.queries() > 0).findFirst()
          .orElseThrow(() -> new IllegalStateException("JVM " + run.number() + " (" + run.dir() + ") has no measured row for category " + category));
      rows.add(row);
    }
    return new SideStatistics(
        rows.stream().mapToDouble(ResultRow::qps).toArray(),
        rows.stream().mapToDouble(ResultRow::p50Micros).toArray(),
        rows.stream().mapToDouble(ResultRow::p99Micros).toArray());
  }

  /** The header, the comparison table and the JVM lines. */
  String table() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "compare (%s): baseline %s, candidate %s; %d JVMs per side, alternated A B A B ...; %,d docs; %d CPUs%n",
        mode, baseline, candidate, jvmsPerSide, docs, cpus));
    sb.append("load averages at start (1, 5, 15 min): ").append(loadAtStart.averages()).append('\n');
    if (loadAtStart.one() > LOAD_WARNING) {
      sb.append(String.format(Locale.ROOT, "WARNING: the 1-minute load average was %.2f > %.0f at the start (%d CPUs): other work competed for the CPUs, the numbers are not trustworthy%n",
          loadAtStart.one(), LOAD_WARNING, cpus));
    }
    appendPacing(sb);
    if (ingestRates.size() == 2) {
      sb.append(String.format(Locale.ROOT, "index built once per side: baseline %.0f docs/s, candidate %.0f docs/s (one thread, before force-merge; both in one JVM, the baseline first)%n", ingestRates.get(0), ingestRates.get(1)));
    }
    sb.append('\n');
    int taskWidth = Math.max(12, comparisons.stream().mapToInt(c -> c.category().length()).max().orElse(0));
    sb.append(String.format(Locale.ROOT, "%" + taskWidth + "s %14s %8s %14s %8s %9s %8s %9s %10s %10s %10s %10s %12s%n",
        "Task", "QPS baseline", "StdDev", "QPS candidate", "StdDev", "Pct diff", "p-value", "Median x", "P50 base", "P50 cand", "P99 base", "P99 cand", "hits differ"));
    for (CategoryComparison c : comparisons) {
      sb.append(String.format(Locale.ROOT, "%" + taskWidth + "s %14.1f %7.1f%% %14.1f %7.1f%% %8.1f%% %8s %9.3f %10.1f %10.1f %10.1f %10.1f %12s%n",
          c.category(), c.baseline().qpsMean(), percentOf(c.baseline()), c.candidate().qpsMean(), percentOf(c.candidate()),
          c.qpsDiffPercent(), pValue(c.pValue()), c.medianQpsRatio(), c.baseline().p50MedianMicros(), c.candidate().p50MedianMicros(),
          c.baseline().p99MedianMicros(), c.candidate().p99MedianMicros(),
          c.hits() == null ? "n/a" : c.hits().differing() + "/" + c.hits().compared()));
    }
    sb.append("\nStdDev: sample standard deviation of the JVMs' QPS in % of their mean; p-value: two-sided Welch t-test of the JVMs' QPS;\n")
        .append("Median x: the candidate's median QPS over the JVMs divided by the baseline's (unlike Pct diff, not pulled by one odd JVM);\n")
        .append("P50/P99: median over the JVMs, µs; hits differ: queries whose total hits or top-k documents (by date|title) differ")
        .append(mode.equals("NC") ? "" : " (n/a in WRT: the index changes while it is queried)").append(".\n\n");
    boolean realTime = !mode.equals("NC");
    sb.append("JVM  side       configuration            load at start (1, 5, 15)   load at end (1, 5, 15)   seconds")
        .append(realTime ? "  ingest docs/s" : "").append('\n');
    for (JvmRun r : runs) {
      sb.append(String.format(Locale.ROOT, "%3d  %-10s %-24s %-26s %-24s %7.1f", r.number(), r.sideName(), r.spec(),
          r.loadAtStart().averages(), r.loadAtEnd().averages(), r.seconds()));
      if (realTime) {
        ResultRow all = r.allRow();
        IngestPace pace = r.ingestPace();
        sb.append(String.format(Locale.ROOT, "  %13.0f", all == null ? Double.NaN : all.ingestDocsPerSecond()))
            .append(pace == null ? "" : pace.keptUp() ? "  kept up" : "  DID NOT KEEP UP");
      }
      sb.append(r.loadAtStart().one() > LOAD_WARNING ? "  (load > 1 at start)" : "").append('\n');
    }
    return sb.toString();
  }

  /** With paced ingestion: the rate, and a warning naming the JVMs that did not keep up with it. */
  private void appendPacing(StringBuilder sb) {
    List<IngestPace> paces = runs.stream().map(JvmRun::ingestPace).filter(Objects::nonNull).toList();
    if (paces.isEmpty()) {
      return;
    }
    sb.append(String.format(Locale.ROOT, "ingest paced at %,.0f docs/s in every JVM (--ingest-rate); kept up = at least %.0f %% of that rate achieved%n",
        paces.get(0).targetDocsPerSecond(), 100 * IngestPace.KEPT_UP_SHARE));
    List<String> behind = runs.stream().filter(r -> r.ingestPace() != null && !r.ingestPace().keptUp())
        .map(r -> String.format(Locale.ROOT, "JVM %d (%s, %,.0f docs/s)", r.number(), r.sideName(), r.ingestPace().achievedDocsPerSecond())).toList();
    if (!behind.isEmpty()) {
      sb.append("WARNING: ").append(behind.size()).append(" JVM(s) could not ingest at that rate, their queries ran at a lighter ingest load: ")
          .append(String.join(", ", behind)).append('\n');
    }
  }

  /** Writes {@value #TABLE}, {@value #CSV}, {@value #JVMS_CSV} and {@value #PNG} into {@code dir}. */
  void write(Path dir) throws IOException {
    Files.writeString(dir.resolve(TABLE), table(), StandardCharsets.UTF_8);
    List<List<String>> rows = new ArrayList<>();
    for (CategoryComparison c : comparisons) {
      rows.add(List.of(c.category(), baseline, candidate, Integer.toString(jvmsPerSide),
          number(c.baseline().qpsMean()), number(c.baseline().qpsStandardDeviation()), number(c.candidate().qpsMean()), number(c.candidate().qpsStandardDeviation()),
          number(c.qpsDiffPercent()), CsvTable.number(c.pValue(), 6),
          number(c.baseline().p50MedianMicros()), number(c.candidate().p50MedianMicros()), number(c.baseline().p99MedianMicros()), number(c.candidate().p99MedianMicros()),
          c.hits() == null ? "" : Integer.toString(c.hits().compared()), c.hits() == null ? "" : Integer.toString(c.hits().differing()),
          number(c.baseline().qpsMedian()), number(c.candidate().qpsMedian())));
    }
    CsvTable.write(dir.resolve(CSV), List.of("category", "baseline", "candidate", "jvms_per_side", "baseline_qps_mean", "baseline_qps_sd",
        "candidate_qps_mean", "candidate_qps_sd", "qps_diff_pct", "p_value", "baseline_p50_us", "candidate_p50_us", "baseline_p99_us",
        "candidate_p99_us", "hit_queries", "hit_queries_differing", "baseline_qps_median", "candidate_qps_median"), rows);
    List<List<String>> jvmRows = new ArrayList<>();
    for (JvmRun r : runs) {
      MachineLoad s = r.loadAtStart();
      MachineLoad e = r.loadAtEnd();
      ResultRow all = mode.equals("NC") ? null : r.allRow();
      IngestPace pace = r.ingestPace();
      jvmRows.add(List.of(Integer.toString(r.number()), r.sideName(), r.spec(), s.at().toString(),
          number(s.one()), number(s.five()), number(s.fifteen()), number(e.one()), number(e.five()), number(e.fifteen()), number(r.seconds()),
          all == null ? "" : number(all.ingestDocsPerSecond()), pace == null ? "" : number(pace.targetDocsPerSecond()),
          pace == null ? "" : Boolean.toString(pace.keptUp())));
    }
    CsvTable.write(dir.resolve(JVMS_CSV), List.of("jvm", "side", "configuration", "started", "load1_start", "load5_start", "load15_start",
        "load1_end", "load5_end", "load15_end", "seconds", "ingest_docs_per_s", "ingest_target_docs_per_s", "ingest_kept_up"), jvmRows);
    drawQps(dir.resolve(PNG));
  }

  private void drawQps(Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> categories = comparisons.stream().map(CategoryComparison::category).toList();
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 110 * categories.size() + 250)).height(560)
        .title(String.format(Locale.ROOT, "QPS, mean ± sd over %d JVMs per side (%s, %,d docs)", jvmsPerSide, mode, docs))
        .xAxisTitle("task category").yAxisTitle("QPS").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.addSeries("baseline " + baseline, categories,
        comparisons.stream().map(c -> (Number) c.baseline().qpsMean()).toList(),
        comparisons.stream().map(c -> (Number) c.baseline().qpsStandardDeviation()).toList());
    chart.addSeries("candidate " + candidate, categories,
        comparisons.stream().map(c -> (Number) c.candidate().qpsMean()).toList(),
        comparisons.stream().map(c -> (Number) c.candidate().qpsStandardDeviation()).toList());
    String name = file.getFileName().toString();
    BitmapEncoder.saveBitmap(chart, file.resolveSibling(name.substring(0, name.length() - ".png".length())).toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static double percentOf(SideStatistics s) {
    return 100 * s.qpsStandardDeviation() / s.qpsMean();
  }

  private static String pValue(double p) {
    return Double.isNaN(p) ? "-" : String.format(Locale.ROOT, p < 0.001 ? "%.1e" : "%.3f", p);
  }

  private static String number(double v) {
    return CsvTable.number(v, 3);
  }
}
