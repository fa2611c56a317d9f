package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code compare} end to end on a tiny generated corpus, an identical configuration on both sides,
 * two child JVMs per side: the files and the table's shape, the alternation, identical hits, and no
 * significant difference. Never how fast.
 */
public class TestCompareSmoke {

  private static final List<String> CATEGORIES = List.of("TermHigh", "AndMedMed", "OrHighLow");

  @ClassRule public static TemporaryFolder temp = new TemporaryFolder();

  private static Path out;

  @BeforeClass
  public static void compare() throws Exception {
    Path data = temp.newFolder("data").toPath();
    out = temp.newFolder("out").toPath();
    Path corpus = data.resolve("corpus.txt");
    Path tasks = data.resolve("corpus.tasks");
    assertEquals(0, BenchCli.commandLine().execute("generate", "--docs", "1500", "--corpus", corpus.toString(),
        "--tasks", tasks.toString(), "--vocabulary", "100000", "--tasks-per-category", "20"));
    assertEquals(0, BenchCli.commandLine().execute("compare", "--baseline", "lucene-dram", "--candidate", "lucene-dram", "--jvms", "2",
        "--corpus", corpus.toString(), "--tasks", tasks.toString(), "--out", out.toString(),
        "--work-dir", temp.newFolder("work").toString(), "--ram-buffer-mb", "16",
        "--categories", String.join(",", CATEGORIES), "--queries-per-category", "300", "--warmup-queries-per-category", "100",
        "--child-jvm-opts", "-Xms64m -Xmx256m -XX:TieredStopAtLevel=1"));
  }

  @Test
  public void writesTableCsvJvmListAndChart() throws Exception {
    for (String file : List.of(CompareReport.TABLE, CompareReport.CSV, CompareReport.JVMS_CSV, CompareReport.PNG)) {
      assertTrue(file, Files.size(out.resolve(file)) > 0);
    }
    assertNotNull(ImageIO.read(out.resolve(CompareReport.PNG).toFile()));
    List<String> table = Files.readAllLines(out.resolve(CompareReport.TABLE));
    assertTrue(table.get(0), table.get(0).startsWith("compare (NC): baseline lucene-dram, candidate lucene-dram; 2 JVMs per side"));
    assertTrue(table.get(1), table.get(1).startsWith("load averages at start"));
    int header = indexOfLineStartingWith(table, "Task");
    assertTrue(table.get(header), table.get(header).matches(
        "\\s*Task\\s+QPS baseline\\s+StdDev\\s+QPS candidate\\s+StdDev\\s+Pct diff\\s+p-value\\s+Median x\\s+P50 base\\s+P50 cand\\s+P99 base\\s+P99 cand\\s+hits differ"));
    for (int i = 0; i <= CATEGORIES.size(); i++) {
      String row = table.get(header + 1 + i).trim();
      assertTrue(row, row.startsWith(i < CATEGORIES.size() ? CATEGORIES.get(i) : ResultRow.ALL));
      assertEquals(row, 13, row.split("\\s+").length);
    }
  }

  @Test
  public void jvmsAlternateAndRecordTheLoad() throws Exception {
    List<String> lines = Files.readAllLines(out.resolve(CompareReport.JVMS_CSV));
    assertEquals(5, lines.size());
    String[] sides = {"baseline", "candidate", "baseline", "candidate"};
    for (int i = 0; i < 4; i++) {
      String[] f = lines.get(i + 1).split(",", -1);
      assertEquals(14, f.length);
      assertEquals("NC: no ingest figures", List.of("", "", ""), List.of(f[11], f[12], f[13]));
      assertEquals(Integer.toString(i + 1), f[0]);
      assertEquals(sides[i], f[1]);
      assertTrue(lines.get(i + 1), Double.parseDouble(f[4]) >= 0 && Double.parseDouble(f[7]) >= 0 && Double.parseDouble(f[10]) > 0);
      assertTrue(Files.exists(out.resolve("jvms").resolve(String.format("%02d-%s", i + 1, sides[i])).resolve("results.csv")));
    }
  }

  @Test
  public void identicalConfigurationsReturnTheSameHitsAndDoNotDifferSignificantly() throws Exception {
    List<String> lines = Files.readAllLines(out.resolve(CompareReport.CSV));
    assertEquals(CATEGORIES.size() + 2, lines.size());
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      assertEquals(line, 18, f.length);
      assertTrue(line, Integer.parseInt(f[14]) > 0);
      assertEquals(line, "0", f[15]);
      assertTrue(line, Double.parseDouble(f[16]) > 0 && Double.parseDouble(f[17]) > 0);
      double p = Double.parseDouble(f[9]);
      assertTrue(line, p > 0 && p <= 1);
      if (f[0].equals(ResultRow.ALL)) {
        // Same configuration on both sides: the null hypothesis holds, so p < 0.01 would happen by
        // chance in 1 % of runs; the per-category p-values are only checked for being p-values.
        assertTrue("identical configurations differ significantly: " + line, p > 0.01);
      }
    }
  }

  private static int indexOfLineStartingWith(List<String> lines, String start) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).trim().startsWith(start)) {
        return i;
      }
    }
    throw new AssertionError("no line starting with " + start + " in\n" + String.join("\n", lines));
  }
}
