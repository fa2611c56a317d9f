package org.lucenenvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;

/**
 * WRT mode ("windowed real-time", SPIRIT §5): one thread adds the corpus to a {@link
 * RealTimeTarget} while the query threads run the task categories interleaved (query {@code n} is
 * of category {@code n mod C}) against it. The baseline target is Lucene's near-real-time search
 * ({@link NrtTarget}, refreshed per {@link RefreshPolicy}); the real-time engine ({@link
 * EngineTarget}) never refreshes.
 *
 * <p>Queries run from the start, but only those that start after {@link
 * RunSettings#warmupDocs()} documents were acknowledged are timed; the window closes when ingestion
 * ends and each query thread has timed at least one query of every category (at most one round of
 * categories after ingestion, so no workload is empty). Right after the warm-up share the ingest
 * thread calls {@link RealTimeTarget#warmupReached()} (NRT-inf refreshes there, outside any query's
 * time); a query's latency includes getting its searcher (NRT-<i>k</i>: the refresh that is due).
 *
 * <p>With a warm-up share of 1 ({@link RunSettings#staticWindow()}) the window opens when the
 * whole corpus was acknowledged and closes after {@link RunSettings#queriesPerCategory()} timed
 * queries per category over all threads: the target serves a static index (NC-style), still
 * through its WRT search path (the engine: its result cache, with the last partial segment live).
 *
 * <p>Freshness: for each timed query, the documents acknowledged (their {@code add} returned) just
 * before the query took its searcher (after any refresh), minus the documents that searcher's
 * reader holds.
 *
 * <p>QPS of a category is its timed queries divided by the window's wall time (its share of the
 * mixed stream); the {@value ResultRow#ALL} row has the total.
 *
 * <p>With {@link RunSettings#paced()} the ingest thread adds document {@code i} no earlier than
 * {@code i / rate} seconds after ingestion started ({@link IngestPacer}), so every target gets the
 * same ingest work per second; the rows carry the target rate and the largest lag ({@link
 * IngestPace}), and a target that could not keep up is reported so (stderr and table).
 *
 * <p>{@link #warmUp} runs a configuration untimed before its timed run, in the same JVM: on a small
 * machine, with ingest, query, flush and merge threads all busy, the JIT's C2 compiler is starved
 * and the hot methods (term statistics, the bulk scorers, the inverter, the terms writer) are
 * still being compiled through the whole first run of a JVM, so a JVM's first row is measured
 * slower than the same configuration run later. A warm-up pass leaves that to untimed work.
 */
public final class RealTimeBenchmark {

  /** Mode name in results. */
  public static final String MODE = "WRT";

  private final RunSettings settings;
  private final Workload workload;
  private final ThreadPinning pinning;
  /** What stderr calls a run: empty for a timed one, {@code " (warm-up pass)"} for an untimed one. */
  private final String passLabel;

  /** A WRT benchmark of {@code workload} under {@code settings}. */
  public RealTimeBenchmark(RunSettings settings, Workload workload, ThreadPinning pinning) {
    this(settings, workload, pinning, "");
  }

  private RealTimeBenchmark(RunSettings settings, Workload workload, ThreadPinning pinning, String passLabel) {
    this.settings = settings;
    this.workload = workload;
    this.pinning = pinning;
    this.passLabel = passLabel;
  }

  /**
   * The name of an NRT row: {@link RefreshPolicy#label()}, with {@code -mw<ms>} appended when the
   * full-flush merge wait is not Lucene's default.
   */
  public String nrtName(RefreshPolicy policy) {
    return policy.label() + mergeWaitSuffix();
  }

  /** The first {@code count} queries of the interleaved stream the query threads run. */
  public List<Query> firstQueries(int count) {
    List<String> categories = workload.categories();
    List<Query> first = new ArrayList<>(count);
    for (long n = 0; n < count; n++) {
      first.add(query(categories, n));
    }
    return first;
  }

  private Query query(List<String> categories, long n) {
    List<Query> queries = workload.queries(categories.get((int) (n % categories.size())));
    return queries.get((int) ((n / categories.size()) % queries.size()));
  }

  /** Runs one target made by {@code factory} in a fresh work directory; rows are named {@code name}. */
  public List<ResultRow> run(String name, RealTimeTarget.Factory factory) throws IOException {
    Path dir = WorkDirectories.fresh(settings.workDir(), "wrt-" + name);
    try (RealTimeTarget target = factory.open(dir)) {
      Window window = new Window((long) settings.queriesPerCategory() * workload.categories().size());
      CompletableFuture<Void> ingest =
          CompletableFuture.runAsync(
              () -> ingest(target, name, window), command -> Thread.ofPlatform().name("wrt-ingest").start(command));
      List<LatencyStats[]> perThread =
          ParallelQueries.run("wrt-query", settings.queryThreads(), pinning, thread -> queryLoop(target, window));
      join(ingest);
      long windowEnd = System.nanoTime();
      double docsPerSecond = settings.docs() / ((window.ingestEnd - window.ingestStart) / 1e9);
      if (window.pace != null) {
        System.err.println("wrt " + name + passLabel + ": ingest " + window.pace.describe());
      }
      long heapBytes = Measurements.usedHeapAfterGc();
      var facts = new ResultRow.IndexFacts(settings.docs(), docsPerSecond, target.indexBytes(), heapBytes, window.pace);
      List<ResultRow> rows = rows(name, perThread, (windowEnd - window.start) / 1e9, facts);
      target.finish();
      return rows;
    } finally {
      if (!settings.keepIndexes()) {
        WorkDirectories.delete(dir);
      }
    }
  }

  /**
   * Runs the target made by {@code factory} {@code passes} times untimed, as {@link #run} does, each
   * ingesting the first {@code docs} documents (at most {@link RunSettings#docs()}) into a scratch
   * directory under the work directory, deleted afterwards; nothing it measures is returned. The
   * factory's target should not report facts of its own (a warm-up is not a result).
   */
  public void warmUp(String name, RealTimeTarget.Factory factory, int passes, long docs) throws IOException {
    if (passes < 0 || docs < 1) {
      throw new IllegalArgumentException("warm-up passes must be >= 0 and documents >= 1: " + passes + ", " + docs);
    }
    Path scratch = settings.workDir().resolve("warmup");
    RealTimeBenchmark pass = new RealTimeBenchmark(settings.forScratchPass(docs, scratch), workload, pinning, " (warm-up pass)");
    try {
      for (int i = 1; i <= passes; i++) {
        System.err.printf("wrt: warm-up pass %d/%d of %s, %,d docs (untimed)%n", i, passes, name, pass.settings.docs());
        pass.run(name, factory);
      }
    } finally {
      WorkDirectories.delete(scratch);
    }
  }

  private String mergeWaitSuffix() {
    long wait = settings.fullFlushMergeWaitMillis();
    return wait == IndexWriterConfig.DEFAULT_MAX_FULL_FLUSH_MERGE_WAIT_MILLIS ? "" : "-mw" + wait;
  }

  /** State shared between the ingest thread and the query threads. */
  private static final class Window {
    final AtomicLong acked = new AtomicLong();
    final AtomicLong sequence = new AtomicLong();
    /** Static window: timed queries still to run (over all threads). */
    final AtomicLong timedLeft;
    volatile boolean open;
    volatile boolean ingestDone;
    volatile long start;
    long ingestStart;
    long ingestEnd;
    /** How the paced ingest went; {@code null} if unpaced. */
    IngestPace pace;

    Window(long timedQueries) {
      this.timedLeft = new AtomicLong(timedQueries);
    }
  }

  private void ingest(RealTimeTarget target, String name, Window window) {
    ThreadPinning.Pin pin = pinning.pinCurrentThread();
    try {
      long warmupDocs = settings.warmupDocs();
      IngestPacer pacer = settings.paced() ? new IngestPacer(settings.ingestRate(), IngestPacer.SYSTEM) : null;
      window.ingestStart = System.nanoTime();
      if (pacer != null) {
        pacer.start(window.ingestStart);
      }
      if (warmupDocs == 0) {
        openWindow(target, window);
      }
      CorpusIngest.ingest(
          settings.corpus(),
          settings.docs(),
          pacer == null ? target::add : doc -> {
            pacer.awaitTurn();
            target.add(doc);
          },
          acked -> {
            window.acked.set(acked);
            if (acked == warmupDocs) {
              openWindow(target, window);
            }
          },
          "wrt " + name + " ingest");
      window.ingestEnd = System.nanoTime();
      if (pacer != null) {
        window.pace = pacer.pace(settings.docs(), window.ingestEnd - window.ingestStart);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("WRT ingestion failed: " + e.getMessage(), e);
    } finally {
      window.ingestDone = true;
      pin.close();
    }
  }

  private static void openWindow(RealTimeTarget target, Window window) throws IOException {
    target.warmupReached();
    window.start = System.nanoTime();
    window.open = true;
  }

  private LatencyStats[] queryLoop(RealTimeTarget target, Window window) throws IOException {
    List<String> categories = workload.categories();
    LatencyStats[] stats = new LatencyStats[categories.size()];
    for (int i = 0; i < stats.length; i++) {
      stats[i] = new LatencyStats();
    }
    int categoriesTimed = 0;
    boolean staticWindow = settings.staticWindow();
    while (staticWindow ? window.timedLeft.get() > 0 : !window.ingestDone || categoriesTimed < stats.length) {
      long n = window.sequence.getAndIncrement();
      int category = (int) (n % categories.size());
      Query query = query(categories, n);
      boolean inWindow = window.open;
      long start = System.nanoTime();
      try (RealTimeTarget.View view = target.acquire(n, window.acked::get)) {
        TotalHits hits = view.searcher().search(query, settings.topK());
        long nanos = System.nanoTime() - start;
        if (inWindow && (!staticWindow || window.timedLeft.getAndDecrement() > 0)) {
          if (stats[category].count() == 0) {
            categoriesTimed++;
          }
          stats[category].record(nanos, hits.value(), Math.max(0, view.acknowledgedBefore() - view.visibleDocs()));
        }
      }
      if (window.ingestDone && !window.open) {
        throw new IllegalStateException("ingestion ended before the WRT window opened");
      }
    }
    return stats;
  }

  private List<ResultRow> rows(String name, List<LatencyStats[]> perThread, double windowSeconds, ResultRow.IndexFacts facts) {
    List<ResultRow> rows = new ArrayList<>();
    LatencyStats all = new LatencyStats();
    List<String> categories = workload.categories();
    for (int c = 0; c < categories.size(); c++) {
      LatencyStats merged = new LatencyStats();
      for (LatencyStats[] thread : perThread) {
        merged.add(thread[c]);
      }
      all.add(merged);
      rows.add(ResultRow.measured(MODE, name, categories.get(c), merged, windowSeconds, true, facts));
    }
    rows.add(ResultRow.measured(MODE, name, ResultRow.ALL, all, windowSeconds, true, facts));
    return rows;
  }

  private static void join(CompletableFuture<Void> ingest) throws IOException {
    try {
      ingest.get();
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for WRT ingestion", e);
    }
  }
}
