package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The run table and the compare report say at what rate ingestion was paced and which configuration or JVM did not keep up. */
public class TestPacedReports {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static List<ResultRow> rows(String configuration, double qps, IngestPace pace) {
    List<ResultRow> rows = new ArrayList<>();
    for (String category : List.of("TermLow", ResultRow.ALL)) {
      LatencyStats stats = new LatencyStats();
      for (int i = 1; i <= 10; i++) {
        stats.record(1000L * i, 5, 0);
      }
      var facts = new ResultRow.IndexFacts(1000, pace == null ? 30000 : pace.achievedDocsPerSecond(), 1 << 20, 1 << 24, pace);
      rows.add(ResultRow.measured(RealTimeBenchmark.MODE, configuration, category, stats, 10 / qps, true, facts));
    }
    return rows;
  }

  @Test
  public void theRunTableListsPacedRowsAndWhetherTheyKeptUp() {
    List<ResultRow> rows = new ArrayList<>(rows("NRT-inf", 100, new IngestPace(1000, 999.5, 2.5)));
    rows.addAll(rows("RT-crash-eager-lazy", 100, new IngestPace(1000, 640, 5600)));
    String table = ResultTable.format(rows);
    assertTrue(table, table.contains("Ingest paced at a fixed rate"));
    String kept = table.lines().filter(l -> l.startsWith("WRT NRT-inf ") && l.contains("2.5")).findFirst().orElseThrow();
    assertTrue(kept, kept.contains(" 1000 ") && kept.endsWith("yes"));
    String behind = table.lines().filter(l -> l.startsWith("WRT RT-crash-eager-lazy ") && l.contains("5600.0")).findFirst().orElseThrow();
    assertTrue(behind, behind.contains(" 640 ") && behind.contains("NO: below 99 % of the rate"));
    assertFalse(ResultTable.format(rows("NRT-inf", 100, null)).contains("paced"));
  }

  @Test
  public void theCompareReportWarnsAboutJvmsThatDidNotKeepUp() throws Exception {
    MachineLoad load = MachineLoad.parse(Instant.EPOCH, "0.20 0.30 0.40 1/100 1\n");
    List<JvmRun> runs = new ArrayList<>();
    IngestPace[] paces = {new IngestPace(1000, 1000.2, 1), new IngestPace(1000, 700, 900), new IngestPace(1000, 999.9, 3),
        new IngestPace(1000, 995, 40)};
    for (int i = 0; i < paces.length; i++) {
      int side = i % 2 == 0 ? JvmSchedule.BASELINE : JvmSchedule.CANDIDATE;
      runs.add(new JvmRun(i + 1, side, side == JvmSchedule.BASELINE ? "nrt-inf" : "rt-volatile-eager-lazy", temp.getRoot().toPath(), load, load,
          12.5, rows(side == JvmSchedule.BASELINE ? "NRT-inf" : "RT-volatile-eager-lazy", 100 + i, paces[i]), null));
    }
    CompareReport report = new CompareReport("nrt-inf", "rt-volatile-eager-lazy", 2, 1000, "WRT", 2, load, List.of(), runs);
    String table = report.table();
    assertTrue(table, table.contains("ingest paced at 1,000 docs/s in every JVM (--ingest-rate)"));
    assertTrue(table, table.contains("WARNING: 1 JVM(s) could not ingest at that rate, their queries ran at a lighter ingest load: JVM 2 (candidate, 700 docs/s)"));
    assertEquals(table, 3, table.lines().filter(l -> l.endsWith("kept up")).count());
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("  2  candidate") && l.contains(" 700  DID NOT KEEP UP")));
    Path out = temp.newFolder("out").toPath();
    report.write(out);
    List<String> jvms = Files.readAllLines(out.resolve(CompareReport.JVMS_CSV));
    assertTrue(jvms.get(0), jvms.get(0).endsWith(",seconds,ingest_docs_per_s,ingest_target_docs_per_s,ingest_kept_up"));
    assertTrue(jvms.get(2), jvms.get(2).endsWith(",700.000,1000.000,false"));
    assertTrue(jvms.get(4), jvms.get(4).endsWith(",995.000,1000.000,true"));
  }
}
