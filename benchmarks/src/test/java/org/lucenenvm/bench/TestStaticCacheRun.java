package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A WRT engine run with a result cache on a static engine ({@code --warmup-share 1}): exactly
 * {@code --queries-per-category} timed queries per category, {@code engine.csv} times hits and
 * misses apart, and with {@code -paired} each timed query's uncached run too. Checks counts and
 * columns, never how fast.
 */
public class TestStaticCacheRun {
  private static final int DOCS = 1500;
  private static final int QUERIES = 40;
  private static final int THREADS = 2;

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void staticWindowTimesTheAskedQueriesAndSplitsHitsFromMisses() throws IOException {
    Path data = temp.newFolder("data").toPath();
    Path out = temp.newFolder("out").toPath();
    Path corpus = data.resolve("corpus.txt");
    Path tasks = data.resolve("corpus.tasks");
    assertEquals(0, BenchCli.commandLine().execute("generate", "--docs", "" + DOCS, "--corpus", corpus.toString(),
        "--tasks", tasks.toString(), "--vocabulary", "100000", "--tasks-per-category", "5"));
    assertEquals(0, BenchCli.commandLine().execute("run", "--corpus", corpus.toString(), "--tasks", tasks.toString(),
        "--out", out.toString(), "--work-dir", temp.newFolder("work").toString(), "--nvm-pool-size", "128m",
        "--modes", "wrt", "--nrt", "none", "--rt", "graceful-eager-lazy", "--rt-cache", "dram-lru-1m-paired",
        "--rt-segment-size", "300", "--warmup-share", "1", "--queries-per-category", "" + QUERIES, "--query-threads", "" + THREADS));
    List<ResultRow> rows = ResultsCsv.read(out.resolve("results.csv"));
    ResultRow all = rows.stream().filter(r -> r.category().equals(ResultRow.ALL)).findFirst().orElseThrow();
    assertEquals(all.toString(), (long) QUERIES * (rows.size() - 1), all.queries());
    for (ResultRow r : rows) {
      assertEquals(r.toString(), 0, r.unseenMax()); // nothing ingested while timed
    }

    List<String> lines = Files.readAllLines(out.resolve(EngineFacts.FILE));
    List<String> header = List.of(lines.get(0).split(","));
    String[] f = lines.get(1).split(",", -1);
    assertEquals(lines.get(1), header.size(), f.length);
    long hits = Long.parseLong(f[header.indexOf("cache_timed_hits")]);
    long misses = Long.parseLong(f[header.indexOf("cache_timed_misses")]);
    // 5 distinct queries per category, each timed 40 times: most repeat on an unchanging engine.
    // The engine times from the moment the window opens, the runner from the next query a thread
    // starts, and the runner stops at the count while each thread may finish one more search: at
    // most two searches per thread that the engine times and the runner does not.
    assertTrue(lines.get(1), hits > misses && hits + misses >= all.queries() && hits + misses <= all.queries() + 2 * THREADS);
    double hitP50 = Double.parseDouble(f[header.indexOf("cache_hit_p50_us")]);
    assertTrue(lines.get(1), 0 < hitP50 && hitP50 <= Double.parseDouble(f[header.indexOf("cache_hit_p99_us")]));
    // -paired: each of those searches also ran bypassing the cache
    assertEquals(lines.get(1), hits + misses, Long.parseLong(f[header.indexOf("paired_queries")]));
    assertEquals(lines.get(1), hits, Long.parseLong(f[header.indexOf("paired_hits")]));
    assertEquals(lines.get(1), misses, Long.parseLong(f[header.indexOf("paired_misses")]));
    double cachedMs = Double.parseDouble(f[header.indexOf("paired_cached_ms")]);
    double uncachedMs = Double.parseDouble(f[header.indexOf("paired_uncached_ms")]);
    assertTrue(lines.get(1), cachedMs > 0 && uncachedMs > 0);
    double speedup = Double.parseDouble(f[header.indexOf("paired_speedup")]);
    // the totals are rounded to 0.1 ms (a cached total under 1 ms moves the ratio by up to 7 %), the
    // speed-up is computed from the unrounded ones
    double halfUnit = 0.05;
    assertTrue(
        lines.get(1),
        (uncachedMs - halfUnit) / (cachedMs + halfUnit) <= speedup * 1.001
            && speedup <= (uncachedMs + halfUnit) / (cachedMs - halfUnit) * 1.001);

    // the same searches per category: one line per category, adding up to the totals above
    List<String> categories = Files.readAllLines(out.resolve(CategoryCacheOutcomes.FILE));
    assertEquals(categories.toString(), rows.size() - 1, categories.size() - 1);
    long categoryHits = 0;
    long categoryMisses = 0;
    for (String line : categories.subList(1, categories.size())) {
      String[] c = line.split(",", -1);
      categoryHits += Long.parseLong(c[2]);
      categoryMisses += Long.parseLong(c[3]);
      // paired: each category's hits and misses also carry their uncached mean
      assertEquals(line, Long.parseLong(c[2]) > 0, !c[8].isEmpty());
      assertEquals(line, Long.parseLong(c[3]) > 0, !c[9].isEmpty());
    }
    assertEquals(categories.toString(), hits, categoryHits);
    assertEquals(categories.toString(), misses, categoryMisses);
  }
}
