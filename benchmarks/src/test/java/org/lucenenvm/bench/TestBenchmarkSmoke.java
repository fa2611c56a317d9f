package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * End to end on a tiny generated corpus: generate, NC run of every configuration, WRT NRT-1 and
 * NRT-inf, then CSV, table and PNG. Checks that the numbers are consistent, never how fast.
 */
public class TestBenchmarkSmoke {

  private static final int DOCS = 2000;
  private static final int QUERIES = 50;
  private static final double WARMUP_SHARE = 0.8;

  @ClassRule public static TemporaryFolder temp = new TemporaryFolder();

  private static Path out;
  private static List<ResultRow> rows;
  private static List<String> categories;

  @BeforeClass
  public static void runEverything() throws IOException {
    Path data = temp.newFolder("data").toPath();
    out = temp.newFolder("out").toPath();
    Path corpus = data.resolve("corpus.txt");
    Path tasks = data.resolve("corpus.tasks");
    assertEquals(0, BenchCli.commandLine().execute("generate", "--docs", "" + DOCS, "--corpus", corpus.toString(),
        "--tasks", tasks.toString(), "--vocabulary", "100000", "--tasks-per-category", "30"));
    assertEquals(0, BenchCli.commandLine().execute("run", "--corpus", corpus.toString(), "--tasks", tasks.toString(),
        "--out", out.toString(), "--work-dir", temp.newFolder("work").toString(), "--nvm-pool-size", "256m",
        "--queries-per-category", "" + QUERIES, "--warmup-queries-per-category", "10", "--nrt", "1,inf",
        "--warmup-share", "" + WARMUP_SHARE, "--query-threads", "2", "--ram-buffer-mb", "16",
        "--rt", "volatile-eager-lazy,crash-eager-lazy,graceful-lazy-lazy", "--rt-segment-size", "300", "--rt-dram-budget", "64k"));
    rows = ResultsCsv.read(out.resolve("results.csv"));
    categories = TaskFile.read(tasks).stream().map(Task::category).distinct().toList();
  }

  @Test
  public void everyConfigurationIsMeasuredOnEveryWorkload() {
    assertTrue(rows.stream().allMatch(ResultRow::measured));
    Map<String, List<ResultRow>> byConfig = rows.stream().collect(Collectors.groupingBy(ResultTable::key));
    assertEquals(java.util.Set.of("NC lucene-dram", "NC lucene-nvm", "NC direct-heap", "NC nvm-uncompressed", "WRT NRT-1", "WRT NRT-inf",
        "WRT RT-volatile-eager-lazy", "WRT RT-crash-eager-lazy", "WRT RT-graceful-lazy-lazy"), byConfig.keySet());
    for (var entry : byConfig.entrySet()) {
      List<ResultRow> configRows = entry.getValue();
      assertEquals(entry.getKey(), categories.size() + 1, configRows.size());
      assertEquals(ResultRow.ALL, configRows.get(configRows.size() - 1).category());
    }
  }

  @Test
  public void nvmConfigurationsIndexIntoTheirPoolAndFindWhatDramFinds() {
    Map<String, ResultRow> dram = workloads("lucene-dram");
    for (String nvm : List.of("lucene-nvm", "nvm-uncompressed")) {
      Map<String, ResultRow> rowsOf = workloads(nvm);
      ResultRow all = rowsOf.get(ResultRow.ALL);
      assertTrue(nvm, all.indexBytes() > 0 && all.queries() > 0);
      for (String category : categories) {
        assertEquals(nvm + " " + category, 0, rowsOf.get(category).zeroHitQueries());
      }
      // Fewer than 1,000 hits per query here, so the counts are exact whatever the codec and directory.
      for (String category : List.of("TermLow", "TermMed", "AndLowLow", "AndMedMed")) {
        assertEquals(nvm + " " + category, dram.get(category).meanHits(), rowsOf.get(category).meanHits(), 1e-9);
      }
    }
  }

  @Test
  public void latenciesAreOrderedAndCountsAddUp() {
    for (ResultRow r : measured()) {
      assertTrue(r.toString(), r.queries() > 0);
      assertTrue(r.toString(), 0 < r.p50Micros() && r.p50Micros() <= r.p95Micros() && r.p95Micros() <= r.p99Micros() && r.p99Micros() <= r.maxMicros());
      assertTrue(r.toString(), r.meanMicros() > 0 && r.meanMicros() <= r.maxMicros());
      assertTrue(r.toString(), r.qps() > 0 && r.ingestDocsPerSecond() > 0 && r.heapBytes() > 0);
      // The engine's index bytes are those in NVM when ingestion ended, which a lazy policy may leave at 0.
      assertTrue(r.toString(), isEngine(r) ? r.indexBytes() >= 0 : r.indexBytes() > 0);
      assertEquals(DOCS, r.docs());
    }
    Map<String, List<ResultRow>> byConfig = measured().stream().collect(Collectors.groupingBy(ResultTable::key));
    for (List<ResultRow> configRows : byConfig.values()) {
      long sum = configRows.stream().filter(r -> !r.category().equals(ResultRow.ALL)).mapToLong(ResultRow::queries).sum();
      ResultRow all = configRows.get(configRows.size() - 1);
      assertEquals(sum, all.queries());
      if (all.mode().equals(StaticBenchmark.MODE)) {
        configRows.stream().filter(r -> r != all).forEach(r -> assertEquals(QUERIES, r.queries()));
      }
    }
  }

  @Test
  public void staticRunsFindHitsForEveryGeneratedTaskAndAgreeOnCounts() {
    Map<String, ResultRow> dram = workloads("lucene-dram");
    Map<String, ResultRow> direct = workloads("direct-heap");
    for (String category : categories) {
      assertEquals(category, 0, dram.get(category).zeroHitQueries());
      assertEquals(category, 0, direct.get(category).zeroHitQueries());
    }
    // Fewer than 1,000 hits per query here, so Lucene counts them exactly whatever the postings format.
    for (String category : List.of("TermLow", "TermMed", "AndLowLow", "AndMedMed")) {
      assertEquals(category, dram.get(category).meanHits(), direct.get(category).meanHits(), 1e-9);
    }
    for (ResultRow r : measured()) {
      if (r.mode().equals(StaticBenchmark.MODE)) {
        assertTrue(Double.isNaN(r.unseenMean()));
        assertEquals(-1, r.unseenMax());
      }
    }
  }

  @Test
  public void freshnessIsBoundedByWhatWasIngestedAfterTheReaderOpened() {
    long afterWarmup = DOCS - (long) Math.floor(WARMUP_SHARE * DOCS);
    for (ResultRow r : measured()) {
      if (!r.mode().equals(RealTimeBenchmark.MODE)) {
        continue;
      }
      assertTrue(r.toString(), 0 <= r.unseenMean() && r.unseenMean() <= r.unseenMax());
      // NRT-inf's reader holds exactly the warm-up documents, and only documents after them can be unseen.
      long bound = r.configuration().equals("NRT-inf") ? afterWarmup : DOCS;
      assertTrue(r.toString(), r.unseenMax() <= bound);
    }
  }

  @Test
  public void theEngineShowsEveryAcknowledgedDocumentToEveryQuery() {
    List<ResultRow> engineRows = measured().stream().filter(TestBenchmarkSmoke::isEngine).toList();
    assertEquals(3 * (categories.size() + 1), engineRows.size()); // volatile, crash, graceful
    for (ResultRow r : engineRows) {
      assertEquals(r.toString(), 0.0, r.unseenMean(), 0.0);
      assertEquals(r.toString(), 0, r.unseenMax());
    }
  }

  @Test
  public void engineFactsRecordDramAndTheGracefulRestart() throws IOException {
    List<String> lines = Files.readAllLines(out.resolve(EngineFacts.FILE));
    assertEquals(EngineFacts.HEADER, lines.get(0));
    assertEquals(4, lines.size());
    String[] header = EngineFacts.HEADER.split(",");
    for (String line : lines.subList(1, 4)) {
      String[] f = line.split(",", -1);
      assertEquals(line, header.length, f.length);
      assertEquals(line, DOCS, Long.parseLong(f[1]));
      long budget = Long.parseLong(f[2]);
      long peak = Long.parseLong(f[3]);
      long largestSegment = Long.parseLong(f[5]);
      assertEquals(64 << 10, budget);
      assertTrue(line, peak > 0 && peak <= budget + largestSegment && Long.parseLong(f[4]) <= peak);
      assertTrue(line, Integer.parseInt(f[10]) >= 1); // segments of the fullest partition
      assertTrue(line, Double.parseDouble(f[11]) >= 0);
      boolean reopened = !f[0].startsWith("RT-volatile"); // graceful and crash-consistent runs reopen
      assertEquals(line, reopened, !f[12].isEmpty());
      if (reopened) {
        assertEquals(line, DOCS, Long.parseLong(f[13]));
        assertTrue(line, Long.parseLong(f[14]) > 0);
      }
      assertTrue(line, Double.parseDouble(f[15]) >= 0); // ingest's wait for a segment slot
    }
  }

  @Test
  public void writesCsvTableAndReadablePngCharts() throws IOException {
    String table = Files.readString(out.resolve("table.txt"));
    for (String name : List.of("NC lucene-dram", "NC direct-heap", "WRT NRT-1", "WRT NRT-inf", "P50", "P99")) {
      assertTrue(name, table.contains(name));
    }
    for (String file : ResultPlots.FILES) {
      BufferedImage image = ImageIO.read(out.resolve(file).toFile());
      assertNotNull(file, image);
      assertTrue(file, image.getWidth() > 100 && image.getHeight() > 100);
    }
    assertEquals(rows, ResultsCsv.read(out.resolve("results.csv")));
  }

  private static boolean isEngine(ResultRow r) {
    return r.configuration().startsWith("RT-");
  }

  private static List<ResultRow> measured() {
    return rows.stream().filter(ResultRow::measured).toList();
  }

  private static Map<String, ResultRow> workloads(String configuration) {
    return rows.stream()
        .filter(r -> r.mode().equals(StaticBenchmark.MODE) && r.configuration().equals(configuration))
        .collect(Collectors.toMap(ResultRow::category, r -> r));
  }
}
