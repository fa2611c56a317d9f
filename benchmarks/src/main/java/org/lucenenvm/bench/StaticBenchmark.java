package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.lucenenvm.server.ProgressMeter;

/**
 * NC mode ("non-concurrent", SPIRIT §5): build the whole index of one configuration, commit
 * (optionally force-merge), open it, warm it up with every category's warm-up queries interleaved,
 * then run each task category on its own: untimed warm-up queries again, then timed queries spread
 * over the query threads. One row per category plus one for all categories.
 *
 * <p>The interleaved pass is there for the JIT: a category warmed up only after the ones before it
 * can take branches that the compiled search code has never seen, and the deoptimizations and
 * recompilations that follow (they kept queries 4× slower for up to half a second on two cores)
 * then fall into its timed queries. The per-category pass brings that category's postings into
 * the caches.
 */
public final class StaticBenchmark {

  /** Mode name in results. */
  public static final String MODE = "NC";

  private final RunSettings settings;
  private final Workload workload;
  private final Analyzer analyzer;
  private final ThreadPinning pinning;

  /** A benchmark of {@code workload} under {@code settings}. */
  public StaticBenchmark(RunSettings settings, Workload workload, Analyzer analyzer, ThreadPinning pinning) {
    this.settings = settings;
    this.workload = workload;
    this.analyzer = analyzer;
    this.pinning = pinning;
  }

  /** Runs {@code configuration}: one row per category plus the {@value ResultRow#ALL} row. */
  public List<ResultRow> run(Configuration configuration) throws IOException {
    System.err.println(configuration.name() + ": " + configuration.description());
    Path dir = WorkDirectories.fresh(settings.workDir(), configuration.name());
    try (Directory directory = configuration.createDirectory(dir)) {
      double docsPerSecond = buildIndex(settings, analyzer, configuration, directory);
      return measure(configuration.name(), directory, docsPerSecond);
    } finally {
      if (!settings.keepIndexes()) {
        WorkDirectories.delete(dir);
      }
    }
  }

  /**
   * Queries the committed index in {@code directory} (built before, possibly by another JVM): one
   * row per category plus the {@value ResultRow#ALL} row, labelled {@code name}; {@code
   * docsPerSecond} is the ingest rate to report ({@code NaN} if unknown).
   *
   * @throws IllegalStateException if the index does not hold {@link RunSettings#docs()} documents
   */
  public List<ResultRow> measure(String name, Directory directory, double docsPerSecond) throws IOException {
    long indexBytes = Measurements.indexBytes(directory);
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      if (reader.numDocs() != settings.docs()) {
        throw new IllegalStateException(name + ": index has " + reader.numDocs() + " documents, expected " + settings.docs());
      }
      IndexSearcher searcher = SearcherFactories.uncached(reader);
      var facts = new ResultRow.IndexFacts(settings.docs(), docsPerSecond, indexBytes, Measurements.usedHeapAfterGc());
      return queryAll(name, searcher, facts);
    }
  }

  /**
   * Indexes the first {@link RunSettings#docs()} documents of the corpus into {@code directory} with
   * one thread, commits, force-merges as the settings say and commits again; returns documents per
   * second of adding plus the first commit.
   */
  public static double buildIndex(RunSettings settings, Analyzer analyzer, Configuration configuration, Directory directory) throws IOException {
    try (IndexWriter writer = new IndexWriter(directory, settings.writerConfig(analyzer, configuration.codec()))) {
      long start = System.nanoTime();
      CorpusIngest.ingest(settings.corpus(), settings.docs(), CorpusIngest.into(writer), acked -> {}, configuration.name() + " index");
      writer.commit();
      double seconds = (System.nanoTime() - start) / 1e9;
      if (settings.forceMergeSegments() > 0) {
        long mergeStart = System.nanoTime();
        writer.forceMerge(settings.forceMergeSegments());
        writer.commit();
        System.err.printf("%s: force-merged to %d segment(s) in %.1f s%n", configuration.name(), settings.forceMergeSegments(), (System.nanoTime() - mergeStart) / 1e9);
      }
      return settings.docs() / seconds;
    }
  }

  private List<ResultRow> queryAll(String name, IndexSearcher searcher, ResultRow.IndexFacts facts) throws IOException {
    List<ResultRow> rows = new ArrayList<>();
    LatencyStats all = new LatencyStats();
    double allSeconds = 0;
    int warmup = settings.warmupQueriesPerCategory();
    try (ProgressMeter progress = new ProgressMeter(name + " query", (long) workload.categories().size() * (settings.queriesPerCategory() + 2L * warmup), "queries")) {
      List<Query> mixedWarmup = workload.interleaved(warmup);
      runQueries(searcher, mixedWarmup, mixedWarmup.size(), progress);
      for (String category : workload.categories()) {
        List<Query> queries = workload.queries(category);
        runQueries(searcher, queries, warmup, progress);
        long start = System.nanoTime();
        LatencyStats stats = runQueries(searcher, queries, settings.queriesPerCategory(), progress);
        double seconds = (System.nanoTime() - start) / 1e9;
        rows.add(ResultRow.measured(MODE, name, category, stats, seconds, false, facts));
        all.add(stats);
        allSeconds += seconds;
      }
    }
    rows.add(ResultRow.measured(MODE, name, ResultRow.ALL, all, allSeconds, false, facts));
    return rows;
  }

  /** Runs {@code count} queries cycling through {@code queries} on all query threads. */
  private LatencyStats runQueries(IndexSearcher searcher, List<Query> queries, int count, ProgressMeter progress) throws IOException {
    AtomicLong next = new AtomicLong();
    List<LatencyStats> perThread =
        ParallelQueries.run(
            "nc-query",
            settings.queryThreads(),
            pinning,
            thread -> {
              LatencyStats stats = new LatencyStats();
              for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                Query query = queries.get((int) (i % queries.size()));
                long start = System.nanoTime();
                TopDocs top = searcher.search(query, settings.topK());
                stats.record(System.nanoTime() - start, top.totalHits.value(), 0);
                progress.advance(1);
              }
              return stats;
            });
    LatencyStats merged = new LatencyStats();
    perThread.forEach(merged::add);
    return merged;
  }
}
