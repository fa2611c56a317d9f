package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The paper experiments {@code scripts/reproduce.sh} runs, each turning the rows of its runs into
 * {@link PaperRatio}s beside the papers' figures. The figures are copied from the papers in the
 * project's seed directory:
 *
 * <ul>
 *   <li>{@code spirit-table1}: SPIRIT (ACM TACO 2024), Table 1: P50, P95, P99 and average latency
 *       (µs) per workload (L, M, H single terms; LL, MM, HH two-term conjunctions). Every latency is
 *       given relative to the loose-DRAM volatile engine, SP-V-L (here {@code RT-volatile-eager-lazy}).
 *   <li>{@code spirit-fig2}: SPIRIT, §6.1 text on Fig. 2 (the figure's bars are not in the text): QPS
 *       ratios NRT-∞ / NRT-1 = 83, SPIRIT / NRT-∞ ≈ 3, SPIRIT / best DAX (DAX-L) = 2.7.
 *   <li>{@code chilukuri}: the uncompressed-postings-on-NVM thesis, §4.3–4.4 and §5.2 text (average
 *       latency) and Table 5.2 (P99 latency, 48 cores), all relative to Compressed DRAM (here {@code
 *       lucene-dram}).
 * </ul>
 */
public final class PaperExperiments {

  /** Names accepted by {@link #ratios}. */
  public static final List<String> NAMES = List.of("spirit-table1", "spirit-fig2", "chilukuri");

  /** SPIRIT's six workloads and the generator's categories that stand for them. */
  static final List<String> SPIRIT_WORKLOADS = List.of("L", "M", "H", "LL", "MM", "HH");
  static final List<String> SPIRIT_CATEGORIES = List.of("TermLow", "TermMed", "TermHigh", "AndLowLow", "AndMedMed", "AndHighHigh");

  private static final String TABLE1 = "SPIRIT Table 1";
  private static final String REFERENCE = "SP-V-L";
  private static final String OUR_REFERENCE = "WRT RT-volatile-eager-lazy";
  private static final String NOT_IN_PAPER = "(not in the paper)";

  /** SPIRIT Table 1, per row: L, M, H, LL, MM, HH, each P50, P95, P99, Avg (µs). */
  private static final Map<String, int[]> TABLE1_ROWS = Map.of(
      "SP-V-L", new int[] {26, 36, 42, 27, 41, 75, 109, 46, 125, 1000, 1094, 213, 42, 72, 85, 43, 159, 334, 507, 174, 1281, 5601, 9697, 1878},
      "SP-G-L", new int[] {26, 36, 42, 27, 41, 75, 110, 46, 126, 1005, 1107, 210, 48, 72, 88, 49, 162, 339, 521, 176, 1282, 5548, 9505, 1876},
      "NRT-1", new int[] {42815, 306709, 542697, 83717, 45131, 297782, 477702, 82816, 63795, 377984, 577864, 111173, 47487, 318163, 545872, 89286, 51384, 322060, 556774, 92507, 61659, 384500, 564877, 112931},
      "NRT-10", new int[] {358, 53637, 242252, 10226, 671, 56869, 281596, 11354, 2703, 115079, 362296, 21704, 811, 61355, 292364, 12055, 1420, 74535, 315342, 14356, 3976, 120219, 411704, 21891},
      "NRT-100", new int[] {109, 340, 12849, 1305, 331, 1028, 29172, 2028, 1772, 13164, 80319, 6862, 230, 720, 25458, 1854, 597, 1249, 25846, 2190, 2822, 9592, 56248, 7504},
      "NRT-1K", new int[] {67, 154, 223, 229, 208, 663, 1396, 602, 1663, 12489, 39404, 5336, 127, 287, 573, 351, 329, 779, 1346, 769, 2441, 7708, 16988, 5114},
      "NRT-∞", new int[] {12, 47, 88, 19, 127, 546, 1044, 219, 1526, 12086, 35025, 3456, 27, 56, 108, 33, 185, 515, 830, 225, 2163, 7011, 14286, 2930},
      "DAX-L", new int[] {11, 53, 110, 17, 155, 701, 1232, 238, 1462, 12373, 25403, 3062, 26, 57, 102, 27, 233, 642, 1005, 266, 2344, 7660, 13894, 2882},
      "DPF-L", new int[] {9, 164, 381, 15, 287, 2300, 5000, 350, 3697, 25234, 48000, 5996, 12, 39, 96, 17, 174, 537, 901, 201, 1840, 6830, 12003, 2536},
      "SSD", new int[] {9, 45, 92, 16, 132, 619, 1424, 204, 1301, 8667, 26119, 2663, 19, 46, 93, 24, 229, 659, 1114, 259, 2532, 7803, 12257, 2996});

  /** Table 1 rows in table order and the configuration measured here that stands for each. */
  private static final List<String[]> TABLE1_MAPPING = List.of(
      new String[] {"SP-V-L", OUR_REFERENCE},
      new String[] {"SP-G-L", "WRT RT-graceful-eager-lazy"},
      new String[] {"NRT-1", "WRT NRT-1"},
      new String[] {"NRT-10", "WRT NRT-10"},
      new String[] {"NRT-100", "WRT NRT-100"},
      new String[] {"NRT-1K", "WRT NRT-1000"},
      new String[] {"NRT-∞", "WRT NRT-inf"},
      new String[] {"DAX-L", "NC lucene-nvm"},
      new String[] {"DPF-L", "NC direct-heap"},
      new String[] {"SSD", "NC lucene-dram"},
      new String[] {NOT_IN_PAPER, "NC nvm-uncompressed"});

  private PaperExperiments() {}

  /**
   * The ratios of experiment {@code name}; {@code runs} maps a run's label to its rows (one run
   * labelled {@code run} for the SPIRIT experiments; {@code t1}, {@code t2}, {@code t4}, ... for
   * chilukuri, by query threads).
   */
  public static List<PaperRatio> ratios(String name, Map<String, List<ResultRow>> runs) {
    return switch (name) {
      case "spirit-table1" -> spiritTable1(only(runs));
      case "spirit-fig2" -> spiritFig2(only(runs));
      case "chilukuri" -> chilukuri(runs);
      default -> throw new IllegalArgumentException("unknown experiment '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  private static List<ResultRow> only(Map<String, List<ResultRow>> runs) {
    if (runs.size() != 1) {
      throw new IllegalArgumentException("this experiment reads one results CSV, got " + runs.keySet());
    }
    return runs.values().iterator().next();
  }

  static List<PaperRatio> spiritTable1(List<ResultRow> rows) {
    List<PaperRatio> ratios = new ArrayList<>();
    String[] stats = {"P50", "P95", "P99", "Avg"};
    for (int w = 0; w < SPIRIT_WORKLOADS.size(); w++) {
      for (String[] map : TABLE1_MAPPING) {
        for (int s = 0; s < stats.length; s++) {
          int column = 4 * w + s;
          double paper = map[0].equals(NOT_IN_PAPER) ? Double.NaN : (double) TABLE1_ROWS.get(map[0])[column] / TABLE1_ROWS.get(REFERENCE)[column];
          double measured = ratio(find(rows, map[1], SPIRIT_CATEGORIES.get(w)), find(rows, OUR_REFERENCE, SPIRIT_CATEGORIES.get(w)), s);
          ratios.add(new PaperRatio(map[0], map[1], SPIRIT_WORKLOADS.get(w), stats[s] + " / " + REFERENCE + " " + stats[s], paper, measured, TABLE1));
        }
      }
    }
    return ratios;
  }

  /** The Table 1 ratios worth a chart: P99 of every row but the reference (whose ratio is 1). */
  static boolean isTable1Chart(PaperRatio r) {
    return r.metric().startsWith("P99") && !r.paperRow().equals(REFERENCE);
  }

  static List<PaperRatio> spiritFig2(List<ResultRow> rows) {
    String text = "SPIRIT §6.1 on Fig. 2";
    List<PaperRatio> ratios = new ArrayList<>();
    ratios.add(qpsRatio(rows, "NRT-∞ / NRT-1", "WRT NRT-inf", "WRT NRT-1", 83, text + " (\"83× speedup over NRT-1\")"));
    ratios.add(qpsRatio(rows, "SPIRIT / NRT-∞", OUR_REFERENCE, "WRT NRT-inf", 3, text + " (\"NRT-∞ is almost 3× slower than SPIRIT\")"));
    ratios.add(qpsRatio(rows, "SPIRIT / DAX-L", OUR_REFERENCE, "NC lucene-nvm", 2.7, text + " (\"best-performing DAX configuration is still 2.7× slower than SPIRIT\")"));
    for (String[] map : TABLE1_MAPPING) {
      if (!map[1].equals(OUR_REFERENCE)) {
        ratios.add(qpsRatio(rows, map[0] + " / SPIRIT", map[1], OUR_REFERENCE, Double.NaN, "Fig. 2 (bar values not in the text)"));
      }
    }
    return ratios;
  }

  private static PaperRatio qpsRatio(List<ResultRow> rows, String paperRow, String numerator, String denominator, double paper, String source) {
    Optional<ResultRow> a = find(rows, numerator, ResultRow.ALL);
    Optional<ResultRow> b = find(rows, denominator, ResultRow.ALL);
    double measured = a.isPresent() && b.isPresent() ? a.get().qps() / b.get().qps() : Double.NaN;
    return new PaperRatio(paperRow, numerator + " / " + denominator, "all six", "QPS ratio", paper, measured, source);
  }

  /** Thesis figures relative to Compressed DRAM: {single term avg, AND avg, single term P99, AND P99}. */
  private static final Map<String, double[]> CHILUKURI = Map.of(
      "lucene-nvm", new double[] {1.0, 1.0, 15.0 / 15, 293.0 / 301},
      "direct-heap", new double[] {0.63, 0.63, 11.0 / 15, 194.0 / 301},
      "nvm-uncompressed", new double[] {0.70, 0.67, 11.0 / 15, 194.0 / 301});
  private static final Map<String, String> CHILUKURI_NAMES = Map.of(
      "lucene-nvm", "Compressed NVM", "direct-heap", "Uncompressed DRAM", "nvm-uncompressed", "Uncompressed NVM 2");
  private static final Map<String, String> CHILUKURI_AVG_SOURCE = Map.of(
      "lucene-nvm", "thesis §5.2 (\"statistically insignificant effect\")",
      "direct-heap", "thesis §4.3-4.4 (\"37% faster\", 48 cores)",
      "nvm-uncompressed", "thesis §5.2 (30% / 33% better than Compressed DRAM)");

  static List<PaperRatio> chilukuri(Map<String, List<ResultRow>> runs) {
    List<PaperRatio> ratios = new ArrayList<>();
    String[] sets = {"single term", "2-term AND"};
    for (var run : runs.entrySet()) {
      for (String config : List.of("lucene-nvm", "direct-heap", "nvm-uncompressed")) {
        for (int set = 0; set < 2; set++) {
          String prefix = set == 0 ? "Term" : "And";
          double[] paper = CHILUKURI.get(config);
          String ours = "NC " + config + " " + run.getKey();
          ratios.add(new PaperRatio(CHILUKURI_NAMES.get(config), ours, sets[set], "avg latency / Compressed DRAM",
              paper[set], pooled(run.getValue(), config, prefix, false) / pooled(run.getValue(), "lucene-dram", prefix, false), CHILUKURI_AVG_SOURCE.get(config)));
          ratios.add(new PaperRatio(CHILUKURI_NAMES.get(config), ours, sets[set], "P99 latency / Compressed DRAM",
              paper[2 + set], pooled(run.getValue(), config, prefix, true) / pooled(run.getValue(), "lucene-dram", prefix, true), "thesis Table 5.2 (48 cores)"));
        }
      }
    }
    return ratios;
  }

  /**
   * Query-weighted mean over the NC categories of {@code config} whose generator name starts with
   * {@code prefix} of their mean (or P99) latency; {@code NaN} if there is none.
   */
  private static double pooled(List<ResultRow> rows, String config, String prefix, boolean p99) {
    double sum = 0;
    long queries = 0;
    for (ResultRow r : rows) {
      if (r.measured() && r.mode().equals(StaticBenchmark.MODE) && r.configuration().equals(config)
          && TaskCategories.generatorName(r.category()).startsWith(prefix) && r.queries() > 0) {
        sum += (p99 ? r.p99Micros() : r.meanMicros()) * r.queries();
        queries += r.queries();
      }
    }
    return queries == 0 ? Double.NaN : sum / queries;
  }

  private static Optional<ResultRow> find(List<ResultRow> rows, String key, String category) {
    return rows.stream().filter(r -> r.measured() && ResultTable.key(r).equals(key)
        && (category.equals(ResultRow.ALL) ? r.category().equals(ResultRow.ALL) : TaskCategories.same(r.category(), category))).findFirst();
  }

  private static double ratio(Optional<ResultRow> row, Optional<ResultRow> reference, int stat) {
    if (row.isEmpty() || reference.isEmpty()) {
      return Double.NaN;
    }
    return stat(row.get(), stat) / stat(reference.get(), stat);
  }

  private static double stat(ResultRow r, int stat) {
    return switch (stat) {
      case 0 -> r.p50Micros();
      case 1 -> r.p95Micros();
      case 2 -> r.p99Micros();
      default -> r.meanMicros();
    };
  }
}
