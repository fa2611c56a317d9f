package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Paper figures beside measured ratios, on hand-made rows. */
public class TestPaperExperiments {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static ResultRow row(String mode, String config, String category, long queries, double p50, double p99, double mean, double qps) {
    return new ResultRow(mode, config, ResultRow.OK, category, queries, p50, p50 * 2, p99, mean, p99 * 2, qps, 10, 0, Double.NaN, -1, 1000, 1, 1, 1, Double.NaN, Double.NaN);
  }

  @Test
  public void spiritTable1RatiosAreRelativeToTheVolatileEngine() {
    List<ResultRow> rows = List.of(
        row("WRT", "RT-volatile-eager-lazy", "AndHighHigh", 100, 100, 1000, 200, 50),
        row("WRT", "NRT-1", "AndHighHigh", 100, 5000, 40000, 9000, 5));
    List<PaperRatio> ratios = PaperExperiments.spiritTable1(rows);
    PaperRatio nrt1P99 = ratios.stream().filter(r -> r.paperRow().equals("NRT-1") && r.workload().equals("HH") && r.metric().startsWith("P99")).findFirst().orElseThrow();
    assertEquals(564877.0 / 9697, nrt1P99.paper(), 1e-9); // Table 1: NRT-1 HH P99 / SP-V-L HH P99
    assertEquals(40.0, nrt1P99.measured(), 1e-9);
    PaperRatio reference = ratios.stream().filter(r -> r.paperRow().equals("SP-V-L") && r.workload().equals("HH") && r.metric().startsWith("Avg")).findFirst().orElseThrow();
    assertEquals(1.0, reference.paper(), 0);
    assertEquals(1.0, reference.measured(), 0);
    // Workloads without rows have no measured ratio, never a made-up one.
    assertTrue(ratios.stream().filter(r -> r.workload().equals("L")).allMatch(r -> Double.isNaN(r.measured())));
    assertEquals(6 * 11 * 4, ratios.size());
  }

  @Test
  public void spiritFig2ComparesAllRowQps() {
    List<ResultRow> rows = List.of(
        row("WRT", "NRT-1", ResultRow.ALL, 10, 1, 1, 1, 10),
        row("WRT", "NRT-inf", ResultRow.ALL, 10, 1, 1, 1, 400));
    PaperRatio first = PaperExperiments.spiritFig2(rows).get(0);
    assertEquals(83, first.paper(), 0);
    assertEquals(40, first.measured(), 1e-9);
  }

  @Test
  public void chilukuriPoolsTermAndConjunctionCategoriesPerThreadCount() throws Exception {
    List<ResultRow> rows = new ArrayList<>();
    for (String config : List.of("lucene-dram", "lucene-nvm", "direct-heap", "nvm-uncompressed")) {
      double factor = config.equals("direct-heap") ? 0.5 : 1;
      rows.add(row("NC", config, "TermHigh", 100, 10, 100, 20 * factor, 1));
      rows.add(row("NC", config, "LowTerm", 300, 10, 100, 10 * factor, 1)); // luceneutil's name counts as a term category
      rows.add(row("NC", config, "AndHighHigh", 100, 10, 100, 40, 1));
    }
    List<PaperRatio> ratios = PaperExperiments.ratios("chilukuri", Map.of("t2", rows));
    PaperRatio heapTerms = ratios.stream().filter(r -> r.ourRow().equals("NC direct-heap t2") && r.workload().equals("single term") && r.metric().startsWith("avg")).findFirst().orElseThrow();
    assertEquals(0.63, heapTerms.paper(), 0);
    assertEquals(0.5, heapTerms.measured(), 1e-9);
    Path out = temp.newFolder().toPath();
    PaperReport.write("chilukuri", "test", ratios, out);
    String md = Files.readString(out.resolve(PaperReport.MARKDOWN));
    assertTrue(md, md.contains("| Uncompressed DRAM | NC direct-heap t2 | single term | avg latency / Compressed DRAM | 0.63 | 0.50 |"));
    assertEquals(ratios.size() + 1, Files.readAllLines(out.resolve(PaperReport.CSV)).size());
    assertTrue(Files.size(out.resolve(PaperReport.PNG)) > 0);
    assertThrows(IllegalArgumentException.class, () -> PaperExperiments.ratios("spirit-table2", Map.of("run", rows)));
  }
}
