package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.realtime.CacheOutcome;

/** Appending rows writes the header once, refuses a foreign file, and keeps engine.csv's lines. */
public class TestCsvTable {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final List<String> HEADER = List.of("name", "value");

  @Test
  public void appendWritesTheHeaderOnceAndQuotesLikeWrite() throws IOException {
    Path appended = tmp.getRoot().toPath().resolve("appended.csv");
    Path written = tmp.getRoot().toPath().resolve("written.csv");
    List<List<String>> rows = List.of(List.of("a, b", "1"), List.of("say \"hi\"", ""));
    for (List<String> row : rows) {
      CsvTable.append(appended, HEADER, row);
    }
    CsvTable.write(written, HEADER, rows);
    String text = Files.readString(appended, StandardCharsets.UTF_8);
    assertEquals("name,value\n\"a, b\",1\n\"say \"\"hi\"\"\",\n", text);
    assertEquals(Files.readString(written, StandardCharsets.UTF_8), text);
  }

  @Test
  public void concatenateKeepsOneHeaderSkipsMissingPartsAndRefusesAnotherHeader() throws IOException {
    Path a = tmp.newFile("a.csv").toPath();
    Path b = tmp.newFile("b.csv").toPath();
    Path target = tmp.getRoot().toPath().resolve("all.csv");
    Files.writeString(a, "name,count\nx,1\n");
    Files.writeString(b, "name,count\n\"y, z\",2\nw,3\n");
    CsvTable.concatenate(List.of(a, tmp.getRoot().toPath().resolve("missing.csv"), b), target);
    assertEquals("name,count\nx,1\n\"y, z\",2\nw,3\n", Files.readString(target));
    CsvTable.concatenate(List.of(tmp.getRoot().toPath().resolve("missing.csv")), target);
    assertFalse(Files.exists(target));
    Files.writeString(b, "name,total\ny,2\n");
    IOException e = assertThrows(IOException.class, () -> CsvTable.concatenate(List.of(a, b), target));
    assertTrue(e.getMessage(), e.getMessage().contains("name,total") && e.getMessage().contains(b.toString()));
  }

  @Test
  public void appendRefusesAFileWithAnotherHeader() throws IOException {
    Path other = tmp.newFile("other.csv").toPath();
    Files.writeString(other, "name,count\nx,1\n");
    String message =
        assertThrows(IOException.class, () -> CsvTable.append(other, HEADER, List.of("y", "2"))).getMessage();
    assertTrue(message, message.contains("other.csv") && message.contains("[name, count]"));
    assertEquals("name,count\nx,1\n", Files.readString(other)); // nothing appended
  }

  @Test
  public void appendRefusesARowOfAnotherWidth() {
    Path file = tmp.getRoot().toPath().resolve("t.csv");
    String message =
        assertThrows(IllegalArgumentException.class, () -> CsvTable.append(file, HEADER, List.of("only")))
            .getMessage();
    assertTrue(message, message.contains("row has 1 fields, header 2"));
    assertTrue(!Files.exists(file));
  }

  @Test
  public void engineFactsKeepTheirColumnsAndFormat() throws IOException {
    Path dir = tmp.getRoot().toPath();
    new EngineFacts("RT-volatile-eager-lazy", 200, 1024, 900, 800, 300, 5000, 700, 4096, "{INGESTED=2, ENGRAVED=5}", 10,
        12.34, -1, -1, -1, 1.25, null, null, null, null, null).appendTo(dir);
    ResultCacheStats cache = new ResultCacheStats(3, 1, 8, 4, 2, 5, 0, 6, 7, 100);
    CacheOutcomeLatency latency = new CacheOutcomeLatency();
    latency.record(CacheOutcome.HIT, 12_000);
    latency.record(CacheOutcome.BYPASSED, 1);
    Query cheap = new TermQuery(new Term("body", "a"));
    Query dear = new TermQuery(new Term("body", "b"));
    CategoryCacheOutcomes categories =
        new CategoryCacheOutcomes(new LinkedHashMap<>(Map.of("TermLow", List.of(cheap, cheap))));
    categories.record(cheap, CacheOutcome.HIT, 2_000);
    categories.record(cheap, CacheOutcome.PARTIAL_HIT, 4_000);
    categories.record(cheap, CacheOutcome.MISS, 30_000, 25_000);
    categories.record(cheap, CacheOutcome.BYPASSED, 99_000);
    categories.record(dear, CacheOutcome.MISS, 99_000); // no category: not counted
    PairedCacheTime paired = new PairedCacheTime();
    assertEquals(false, paired.nextUncachedFirst());
    assertEquals(true, paired.nextUncachedFirst()); // alternating
    paired.record(CacheOutcome.MISS, 2_000_000, 2_500_000);
    paired.record(CacheOutcome.HIT, 1_000_000, 5_000_000);
    new EngineFacts("RT-graceful-eager-lazy", 200, 1024, 900, 800, 300, 5000, 700, 4096, "{COMMITTED=1}", 3, 0.5, 98.76,
        200, 8192, 0, cache, cache, latency, categories, paired).appendTo(dir);
    List<String> lines = Files.readAllLines(dir.resolve(EngineFacts.FILE));
    assertEquals(
        List.of(
            EngineFacts.HEADER,
            "RT-volatile-eager-lazy,200,1024,900,800,300,5000,700,4096,{INGESTED=2  ENGRAVED=5},10,12.3,,,,1.3,,,,,,,,,,,,,,,,,,,,,,,,,,",
            "RT-graceful-eager-lazy,200,1024,900,800,300,5000,700,4096,{COMMITTED=1},3,0.5,98.8,200,8192,0.0,3,1,4,"
                + String.format(Locale.ROOT, "%.4f", cache.hitRate()) + ",2,5,6,7,8,"
                + String.format(Locale.ROOT, "%.4f", cache.hitRate()) + ",1,12.0,12.0,0,,,2,3.0,7.5,2.500,1,1.0,5.0,1,2.0,2.5"),
        lines);
    assertEquals(
        List.of(
            "configuration,category,timed_hits,timed_misses,hit_rate,hit_mean_us,miss_mean_us,saved_ms,"
                + "hit_uncached_mean_us,miss_uncached_mean_us",
            // 2 x (30 - 3) us saved; only the miss was paired
            "RT-graceful-eager-lazy,TermLow,2,1,0.6667,3.0,30.0,0.1,,25.0"),
        Files.readAllLines(dir.resolve(CategoryCacheOutcomes.FILE)));
  }
}
