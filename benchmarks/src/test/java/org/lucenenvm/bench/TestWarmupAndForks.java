package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import picocli.CommandLine;

/**
 * {@code run --warmup-runs} and {@code run --forks} on a tiny generated corpus: warm-up passes leave
 * no rows, facts or directories behind; forked rounds hold every configuration's rows, merged, in
 * rotated run order; bad values are refused before anything runs. Never how fast.
 */
public class TestWarmupAndForks {

  private static final int DOCS = 1200;
  private static final int WARMUP_DOCS = 300;
  private static final List<String> CATEGORIES = List.of("TermHigh", "AndMedMed");
  private static final String ENGINE = "RT-volatile-eager-lazy-maxseg5";
  private static final int FORKED_RATE = 20000;

  @ClassRule public static TemporaryFolder temp = new TemporaryFolder();

  private static Path corpus;
  private static Path tasks;
  private static Path forkedOut;
  private static Path forkedWork;

  @BeforeClass
  public static void generateAndRunForked() throws Exception {
    Path data = temp.newFolder("data").toPath();
    corpus = data.resolve("corpus.txt");
    tasks = data.resolve("corpus.tasks");
    assertEquals(0, BenchCli.commandLine().execute("generate", "--docs", "" + DOCS, "--corpus", corpus.toString(),
        "--tasks", tasks.toString(), "--vocabulary", "100000", "--tasks-per-category", "20"));
    forkedOut = temp.newFolder("forked").toPath();
    forkedWork = temp.newFolder("forked-work").toPath();
    List<String> args = wrtArgs(forkedOut, forkedWork, "--rt", "volatile-eager-lazy", "--rt-max-segments", "5",
        "--forks", "2", "--warmup-runs", "1", "--warmup-docs", "" + WARMUP_DOCS, "--ingest-rate", "" + FORKED_RATE,
        "--child-jvm-opts", "-Xms64m -Xmx256m -XX:TieredStopAtLevel=1");
    assertEquals(0, BenchCli.commandLine().execute(args.toArray(String[]::new)));
  }

  private static List<String> wrtArgs(Path out, Path work, String... more) {
    List<String> args = new ArrayList<>(List.of("run", "--corpus", corpus.toString(), "--tasks", tasks.toString(),
        "--out", out.toString(), "--work-dir", work.toString(), "--modes", "wrt", "--nrt", "inf", "--nvm-pool-size", "256m",
        "--categories", String.join(",", CATEGORIES), "--ram-buffer-mb", "16", "--rt-segment-size", "300", "--rt-dram-budget", "64k"));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  public void warmUpPassesLeaveNoRowsAndNoScratchDirectory() throws Exception {
    Path out = temp.newFolder("warm").toPath();
    Path work = temp.newFolder("warm-work").toPath();
    assertEquals(0, BenchCli.commandLine().execute(
        wrtArgs(out, work, "--rt", "none", "--warmup-runs", "2", "--warmup-docs", "" + WARMUP_DOCS, "--keep-indexes").toArray(String[]::new)));
    List<ResultRow> rows = ResultsCsv.read(out.resolve("results.csv"));
    assertEquals(CATEGORIES.size() + 1, rows.size());
    for (ResultRow r : rows) {
      assertEquals(r.toString(), "NRT-inf", r.configuration());
      assertEquals(r.toString(), DOCS, r.docs());
    }
    // The timed run's index is kept as asked; the warm-up's scratch directory never is.
    try (Stream<Path> left = Files.list(work)) {
      assertEquals(List.of(work.resolve("wrt-NRT-inf")), left.toList());
    }
  }

  @Test
  public void pacedRowsCarryTheirRateAndNeverRunAheadOfIt() throws Exception {
    Path out = temp.newFolder("paced").toPath();
    Path work = temp.newFolder("paced-work").toPath();
    int rate = 3000;
    assertEquals(0, BenchCli.commandLine().execute(wrtArgs(out, work, "--rt", "volatile-eager-lazy", "--ingest-rate", "" + rate,
        "--warmup-runs", "1", "--warmup-docs", "" + WARMUP_DOCS).toArray(String[]::new)));
    List<ResultRow> rows = ResultsCsv.read(out.resolve("results.csv"));
    assertEquals(2 * (CATEGORIES.size() + 1), rows.size());
    for (ResultRow r : rows) {
      IngestPace pace = r.ingestPace();
      assertEquals(r.toString(), rate, pace.targetDocsPerSecond(), 0);
      assertEquals(r.toString(), r.ingestDocsPerSecond(), pace.achievedDocsPerSecond(), 0);
      // Document DOCS - 1 is not added before (DOCS - 1) / rate seconds: the achieved rate cannot exceed this, whatever the machine.
      assertTrue(r.toString(), pace.achievedDocsPerSecond() < rate * (double) DOCS / (DOCS - 1));
      assertTrue(r.toString(), pace.maxLagMillis() >= 0);
    }
    String table = Files.readString(out.resolve("table.txt"));
    assertTrue(table, table.contains("Ingest paced at a fixed rate") && table.lines().filter(l -> l.matches("WRT \\S+ +3000 .*")).count() == 2);
  }

  @Test
  public void everyRoundHoldsEveryConfigurationMergedInConfigurationOrder() throws Exception {
    for (int round = 1; round <= 2; round++) {
      Path dir = forkedOut.resolve("run" + round);
      List<ResultRow> rows = ResultsCsv.read(dir.resolve("results.csv"));
      assertEquals(2 * (CATEGORIES.size() + 1), rows.size());
      for (int i = 0; i < rows.size(); i++) {
        ResultRow r = rows.get(i);
        assertEquals(r.toString(), i <= CATEGORIES.size() ? "NRT-inf" : ENGINE, r.configuration());
        assertEquals(r.toString(), DOCS, r.docs());
        assertTrue(r.toString(), r.measured() && r.queries() > 0);
      }
      String table = Files.readString(dir.resolve("table.txt"));
      assertTrue(table, table.contains("WRT NRT-inf") && table.contains("WRT " + ENGINE));
      // One engine line per round: the timed run's facts, none of its warm-up pass.
      List<String> facts = Files.readAllLines(dir.resolve(EngineFacts.FILE));
      assertEquals(facts.toString(), 2, facts.size());
      assertEquals(EngineFacts.HEADER, facts.get(0));
      assertTrue(facts.get(1), facts.get(1).startsWith(ENGINE + ",") && facts.get(1).contains("," + DOCS + ","));
    }
  }

  @Test
  public void roundsRotateTheOrderAndRecordTheLoad() throws Exception {
    List<String> lines = Files.readAllLines(forkedOut.resolve(ForkedRun.JVMS_CSV));
    assertEquals(5, lines.size());
    assertTrue(lines.get(0), lines.get(0).startsWith("round,jvm,configuration,started,load1_start"));
    String[][] expected = {{"1", "1", "NRT-inf"}, {"1", "2", ENGINE}, {"2", "1", ENGINE}, {"2", "2", "NRT-inf"}};
    for (int i = 0; i < expected.length; i++) {
      String[] f = lines.get(i + 1).split(",", -1);
      assertEquals(lines.get(i + 1), 11, f.length);
      assertEquals(List.of(expected[i]), List.of(f[0], f[1], f[2]));
      assertTrue(lines.get(i + 1), Double.parseDouble(f[4]) >= 0 && Double.parseDouble(f[7]) >= 0 && Double.parseDouble(f[10]) > 0);
      Path jvm = forkedOut.resolve("run" + f[0]).resolve("jvms").resolve("0" + f[1] + "-" + f[2]);
      List<ResultRow> own = ResultsCsv.read(jvm.resolve("results.csv"));
      assertTrue(own.stream().allMatch(r -> r.configuration().equals(f[2])));
      String command = Files.readString(jvm.resolve("command.txt"));
      assertTrue(command, command.contains("--warmup-runs 1") && command.contains("--warmup-docs " + WARMUP_DOCS)
          && command.contains("--rt-max-segments 5") && command.contains("--ingest-rate " + FORKED_RATE)
          && !command.contains("--forks") && !command.contains("--child-jvm-opts"));
      assertTrue(own.stream().allMatch(r -> r.ingestPace() != null && r.ingestPace().targetDocsPerSecond() == FORKED_RATE));
      String stderr = Files.readString(jvm.resolve("stderr.log"));
      assertTrue(stderr, stderr.contains("warm-up pass 1/1 of " + f[2] + ", " + WARMUP_DOCS + " docs"));
    }
    try (Stream<Path> left = Files.list(forkedWork)) {
      assertEquals(List.of(), left.toList());
    }
  }

  @Test
  public void badValuesAreRefusedNamingTheOptionBeforeAnythingRuns() throws Exception {
    Path parent = temp.newFolder("bad").toPath();
    String[][] cases = {
      {"--forks", "-1"}, {"--warmup-runs", "-1"}, {"--warmup-docs", "0"}, {"--rt-max-segments", "1"}, {"--rt-queue-capacity", "0"},
      {"--rt-statistics-lag", "-1"}, {"--rt-background-nice", "20"}
    };
    for (String[] bad : cases) {
      Path out = parent.resolve("out");
      List<String> args = new ArrayList<>(List.of("run", "--corpus", "no-such-corpus.txt", "--tasks", "no.tasks",
          "--out", out.toString(), "--work-dir", parent.resolve("work").toString()));
      args.addAll(List.of(bad));
      StringWriter err = new StringWriter();
      CommandLine cli = BenchCli.commandLine();
      cli.setErr(new PrintWriter(err));
      assertEquals(String.join(" ", bad), 1, cli.execute(args.toArray(String[]::new)));
      assertTrue(err.toString(), err.toString().contains(bad[0] + " "));
      assertFalse(Files.exists(out));
    }
  }
}
