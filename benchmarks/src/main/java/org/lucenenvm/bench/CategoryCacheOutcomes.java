package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.search.Query;
import org.lucenenvm.realtime.CacheOutcome;

/**
 * The result cache's outcome per query category, for the timed queries of an engine run: how many
 * hit (own entry or Partial Type I) and missed, their mean engine search time, and the search time
 * the hits saved against the category's misses. Under a skewed stream the queries that hit are the
 * popular ones and the misses the rest, so this says which categories a cache of a given size and
 * policy serves, and where the saved time comes from. Appended to {@value #FILE}, one line per
 * category after a header:
 *
 * <pre>
 * configuration,category,timed_hits,timed_misses,hit_rate,hit_mean_us,miss_mean_us,saved_ms,
 *   hit_uncached_mean_us,miss_uncached_mean_us
 * </pre>
 *
 * {@code saved_ms} = hits &times; (miss mean &minus; hit mean): the search time the hits would have
 * taken had they cost what the category's misses did (misses include the cost of computing
 * Partial Type I parts). With a paired cache ({@link PairedCacheTime}) {@code
 * hit_uncached_mean_us} and {@code miss_uncached_mean_us} are the mean time of the same searches
 * bypassing the cache (what a category's misses cost beyond an uncached search, and how dear the
 * queries it hits are); without pairs they are empty. Queries that bypass the cache, or whose
 * category is unknown, are not counted. Thread-safe.
 */
public final class CategoryCacheOutcomes {
  /** File name in the output directory. */
  public static final String FILE = "cache-categories.csv";

  private static final List<String> HEADER =
      List.of("configuration", "category", "timed_hits", "timed_misses", "hit_rate", "hit_mean_us", "miss_mean_us", "saved_ms",
          "hit_uncached_mean_us", "miss_uncached_mean_us");

  private static final class Tally {
    final LongAdder hits = new LongAdder();
    final LongAdder hitNanos = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder missNanos = new LongAdder();
    final LongAdder pairedHits = new LongAdder();
    final LongAdder hitUncachedNanos = new LongAdder();
    final LongAdder pairedMisses = new LongAdder();
    final LongAdder missUncachedNanos = new LongAdder();
  }

  private final Map<Query, Tally> byQuery;
  private final Map<String, Tally> byCategory = new LinkedHashMap<>();

  /** Counts the queries of {@code queriesByCategory} (category names in report order). */
  public CategoryCacheOutcomes(Map<String, List<Query>> queriesByCategory) {
    Map<Query, Tally> index = new HashMap<>();
    queriesByCategory.forEach(
        (category, queries) -> {
          Tally tally = new Tally();
          byCategory.put(category, tally);
          for (Query q : queries) {
            index.putIfAbsent(q, tally);
          }
        });
    this.byQuery = Map.copyOf(index);
  }

  /** Records one timed search of {@code query} that took {@code nanos} with {@code outcome}. */
  public void record(Query query, CacheOutcome outcome, long nanos) {
    record(query, outcome, nanos, -1);
  }

  /**
   * Records one timed search of {@code query} that took {@code nanos} with {@code outcome} and,
   * unless {@code uncachedNanos} is negative, {@code uncachedNanos} bypassing the cache (a pair).
   */
  public void record(Query query, CacheOutcome outcome, long nanos, long uncachedNanos) {
    Tally tally = byQuery.get(query);
    if (tally == null || outcome == CacheOutcome.BYPASSED) {
      return;
    }
    boolean paired = uncachedNanos >= 0;
    if (outcome.isHit()) {
      tally.hits.increment();
      tally.hitNanos.add(nanos);
      if (paired) {
        tally.pairedHits.increment();
        tally.hitUncachedNanos.add(uncachedNanos);
      }
    } else {
      tally.misses.increment();
      tally.missNanos.add(nanos);
      if (paired) {
        tally.pairedMisses.increment();
        tally.missUncachedNanos.add(uncachedNanos);
      }
    }
  }

  /** Appends one line per category of run {@code configuration} to {@code dir}/{@value #FILE}. */
  public void appendTo(Path dir, String configuration) throws IOException {
    for (Map.Entry<String, Tally> e : byCategory.entrySet()) {
      Tally t = e.getValue();
      long hits = t.hits.sum();
      long misses = t.misses.sum();
      double hitMean = hits == 0 ? 0 : t.hitNanos.sum() / 1e3 / hits;
      double missMean = misses == 0 ? 0 : t.missNanos.sum() / 1e3 / misses;
      String saved = hits == 0 || misses == 0 ? "" : CsvTable.number(hits * (missMean - hitMean) / 1e3, 1);
      CsvTable.append(dir.resolve(FILE), HEADER, List.of(configuration, e.getKey(), Long.toString(hits), Long.toString(misses),
          hits + misses == 0 ? "" : CsvTable.number((double) hits / (hits + misses), 4),
          hits == 0 ? "" : CsvTable.number(hitMean, 1), misses == 0 ? "" : CsvTable.number(missMean, 1), saved,
          meanMicros(t.hitUncachedNanos, t.pairedHits), meanMicros(t.missUncachedNanos, t.pairedMisses)));
    }
  }

  private static String meanMicros(LongAdder nanos, LongAdder count) {
    long n = count.sum();
    return n == 0 ? "" : CsvTable.number(nanos.sum() / 1e3 / n, 1);
  }
}
