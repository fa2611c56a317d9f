package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.demo.SyntheticCorpus;
import org.lucenenvm.server.LoadWorkload.BulkOutcome;
import org.lucenenvm.server.LoadWorkload.QueryPopularity;
import org.lucenenvm.store.PoolGrowth;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A soak of the search server through HTTP on loopback ({@code scripts/server-load.sh soak}):
 * writer threads bulk-ingest {@link LoadWorkload}'s documents while searcher threads query, and
 * every {@code --window} a line reports documents acknowledged, ingest rate, queries and their
 * P50/P99, refusals and errors by operation and status, the pool's size and use from {@code _stats}
 * and the pool growths seen so far (a 1-second poll of {@code _stats}).
 *
 * <p>{@code --run growth} ingests for {@code --duration} with the server's options as given after
 * {@code --} (none: its defaults) and checks that the document count equals the documents
 * acknowledged, that the pool grew to at least {@code --min-pool-growth} times its initial size,
 * and that no request failed other than with the documented 429 (a bulk line refused at the flood
 * stage is not applied and not counted as acknowledged). {@code --run flood} needs a pool that does
 * not grow ({@code --pool-max-size 0}): it ingests until the index refuses writes steadily, checks
 * that searches, gets go on and a single add answers 429, deletes the oldest {@code --delete-share}
 * of the acknowledged documents by id, waits until writes are taken again (reclaiming merges) and
 * ingests {@code --resume-docs} more; the document count must equal acknowledged minus deleted.
 * Exits 1 when a check fails. Pools live in a temporary directory, removed at the end.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, description = "Soak of the search server through HTTP (see SoakBenchmark).")
public final class SoakBenchmark implements Callable<Integer> {
  @Option(names = "--run", defaultValue = "growth", description = "growth (ingest for --duration) or flood (fill a pool that does not grow, delete, fill again) (default: ${DEFAULT-VALUE}).")
  String run;

  @Option(names = "--duration", converter = TimeSpan.class, defaultValue = "60m", description = "How long the growth run ingests, e.g. 60m or 20s (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--window", converter = TimeSpan.class, defaultValue = "5m", description = "Report interval (default: ${DEFAULT-VALUE}).")
  Duration window;

  @Mixin LoadClients clients;

  @Option(names = "--min-pool-growth", defaultValue = "2", description = "Growth run: the final pool must be at least this many times the initial one; 0 checks nothing (default: ${DEFAULT-VALUE}).")
  double minPoolGrowth;

  @Option(names = "--delete-share", defaultValue = "0.5", description = "Flood run: share of the acknowledged documents deleted, the oldest first (default: ${DEFAULT-VALUE}).")
  double deleteShare;

  @Option(names = "--resume-docs", defaultValue = "20000", description = "Flood run: documents to acknowledge after writes are taken again (default: ${DEFAULT-VALUE}).")
  long resumeDocs;

  @Option(names = "--flood-timeout", converter = TimeSpan.class, defaultValue = "15m", description = "Flood run: longest wait for the flood stage, for writes to be taken again, and for --resume-docs (default: ${DEFAULT-VALUE}).")
  Duration floodTimeout;

  @Parameters(paramLabel = "SERVER-OPTION", description = "search-server options after --, e.g. -- --pool-size 128m --pool-max-size 0 (default: none, the server's defaults); --port and --data-dir are replaced by a free port and a temporary directory.")
  List<String> serverOptions = new ArrayList<>();

  private static final String INDEX = "soak";
  private static final SyntheticCorpus CORPUS = LoadWorkload.CORPUS;
  /** Failures that are documented answers, not errors: a refusal at the flood stage. */
  private static final List<String> REFUSALS = List.of("bulk 429", "add 429");
  private static final long GETS_DURING_FLOOD = 200;

  private final Tally tally = new Tally();
  private final List<String> failedChecks = new ArrayList<>();

  /** What the clients did since the start; the monitor takes the differences per window. */
  private static final class Tally {
    final LongAdder acknowledged = new LongAdder();
    final LongAdder queries = new LongAdder();
    final LongAdder gets = new LongAdder();
    final LongAdder deleted = new LongAdder();
    /** Requests (for {@code _bulk}: lines) not done, by "operation status". */
    final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    final Recorder queryMicros = new Recorder(3);
    final Recorder bulkMicros = new Recorder(3);

    void fail(String operation, int status) {
      failures.computeIfAbsent(operation + " " + status, k -> new LongAdder()).increment();
    }

    void fail(String operation, Exception e) {
      if (e instanceof ApiException api) {
        fail(operation, api.status());
      } else {
        failures.computeIfAbsent(operation + " " + e.getClass().getSimpleName(), k -> new LongAdder()).increment();
      }
      if (!(e instanceof ApiException api && api.status() == 429)) {
        System.err.println(operation + " error: " + e);
      }
    }

    Map<String, Long> failures() {
      Map<String, Long> out = new TreeMap<>();
      failures.forEach((k, v) -> out.put(k, v.sum()));
      return out;
    }

    long errors() {
      return failures().entrySet().stream().filter(e -> !REFUSALS.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
    }
  }

  @Override
  public Integer call() throws Exception {
    if (!run.equals("growth") && !run.equals("flood")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--run must be growth or flood, got " + run);
    }
    ServerCli cli = new ServerCli();
    new CommandLine(cli).parseArgs(serverOptions.toArray(String[]::new));
    Path dataDir = Files.createTempDirectory("soak");
    try {
      ServerConfig config = cli.toConfig().toBuilder().port(0).dataDir(dataDir).build();
      if (run.equals("flood") && config.poolGrowth().enabled()) {
        throw new IllegalArgumentException("the flood run needs a pool that does not grow: pass -- --pool-max-size 0 and a small --pool-size, e.g. 128m");
      }
      try (SearchServer server = new SearchServer(config).start();
          ApiClient api = new ApiClient(server.uri(), config.authToken())) {
        api.createIndex(INDEX, SyntheticCorpus.indexSpec(clients.partitions));
        Monitor monitor = new Monitor(api);
        System.out.printf(
            Locale.ROOT,
            "soak %s: %s, %d writer + %d searcher threads over HTTP, %d-doc bulks, %d partitions, %d cores;"
                + " server options %s: mode %s, pool %s, growth %s, flood stage %.0f %%; data in %s%n",
            run, run.equals("growth") ? duration.toSeconds() + " s" : "until flood stage, then deletes",
            clients.writers, clients.searchers, clients.batch, clients.partitions, Runtime.getRuntime().availableProcessors(),
            serverOptions.isEmpty() ? "none (defaults)" : serverOptions, config.mode(),
            mib(monitor.initialPool), growthLimit(config),
            100 * config.floodStage(), dataDir);
        if (run.equals("growth")) {
          growth(api, monitor);
        } else {
          flood(api, monitor);
        }
      }
    } finally {
      IOUtils.rm(dataDir);
    }
    Map<String, Long> failures = tally.failures();
    System.out.printf(Locale.ROOT, "refusals and errors over the run: %s%n", failures.isEmpty() ? "none" : failures);
    check("errors other than 429", tally.errors() == 0, tally.errors() + " requests failed otherwise: " + failures);
    if (failedChecks.isEmpty()) {
      System.out.println("RESULT ok: every check passed");
      return 0;
    }
    System.out.println("RESULT FAILED: " + failedChecks);
    return 1;
  }

  private void growth(ApiClient api, Monitor monitor) throws Exception {
    AtomicLong next = new AtomicLong();
    Workers searching = searchers(api);
    Workers writing = writers(api, next, o -> {});
    monitor.runUntil(s -> false, System.nanoTime() + duration.toNanos());
    writing.stop();
    searching.stop();
    JsonNode end = monitor.finish();
    long acknowledged = tally.acknowledged.sum();
    long counted = end.get("docs").asLong();
    System.out.printf(
        Locale.ROOT,
        "end: %,d documents acknowledged, %,d counted; pool %s -> %s (%.2fx) in %d growths seen; %,d queries%n",
        acknowledged, counted, mib(monitor.initialPool), mib(monitor.pool), monitor.pool / (double) monitor.initialPool,
        monitor.growths, tally.queries.sum());
    check("document count", counted == acknowledged, "counted " + counted + ", acknowledged " + acknowledged);
    check("queries answered", tally.queries.sum() > 0, "no query answered");
    if (minPoolGrowth > 0) {
      check(
          "pool growth",
          monitor.growths > 0 && monitor.pool >= minPoolGrowth * monitor.initialPool,
          String.format(Locale.ROOT, "pool %s after %d growths, short of %.2fx the initial %s",
              mib(monitor.pool), monitor.growths, minPoolGrowth, mib(monitor.initialPool)));
    }
  }

  private void flood(ApiClient api, Monitor monitor) throws Exception {
    AtomicLong next = new AtomicLong();
    List<BulkOutcome> bulks = Collections.synchronizedList(new ArrayList<>());
    Workers searching = searchers(api);
    Workers writing = writers(api, next, bulks::add);
    boolean flooded = monitor.runUntil(s -> monitor.refusedPolls >= 3, System.nanoTime() + floodTimeout.toNanos());
    writing.stop();
    check("flood stage reached", flooded, "writes not refused steadily within " + floodTimeout);
    if (!flooded) {
      searching.stop();
      monitor.finish();
      return;
    }
    long queriesAtFlood = tally.queries.sum();
    System.out.printf(Locale.ROOT, "flood stage: writes refused after %,d documents acknowledged%n", tally.acknowledged.sum());

    // While refused: gets of acknowledged documents answer, a single add answers 429.
    List<String> ids = acknowledgedIds(bulks);
    long getsBefore = tally.gets.sum();
    for (int i = 0; i < GETS_DURING_FLOOD; i++) {
      String id = ids.get((int) ((long) i * ids.size() / GETS_DURING_FLOOD));
      try {
        api.get(INDEX, id);
        tally.gets.increment();
      } catch (Exception e) {
        tally.fail("get", e);
      }
    }
    check("gets during flood stage", tally.gets.sum() - getsBefore == GETS_DURING_FLOOD,
        (tally.gets.sum() - getsBefore) + " of " + GETS_DURING_FLOOD + " answered");
    long single = next.getAndIncrement();
    try {
      api.add(INDEX, CORPUS.documentLine(single));
      tally.acknowledged.increment();
      ids.add(CORPUS.document(single).id());
      check("single add refused at flood stage", false, "document " + single + " was acknowledged");
    } catch (ApiException e) {
      tally.fail("add", e);
      check("single add refused at flood stage", e.status() == 429, "answered " + e.status() + ": " + e.getMessage());
    }

    // Delete the oldest share by id, then wait for the reclaiming merges to free room.
    int toDelete = (int) (ids.size() * deleteShare);
    Workers deleting = new Workers("deleter", clients.writers, w -> {
      for (int i = w; i < toDelete; i += clients.writers) {
        try {
          api.delete(INDEX, ids.get(i));
          tally.deleted.increment();
        } catch (Exception e) {
          tally.fail("delete", e);
        }
      }
    });
    monitor.runUntil(s -> deleting.done(), System.nanoTime() + floodTimeout.toNanos());
    deleting.join();
    System.out.printf(Locale.ROOT, "deleted %,d of %,d acknowledged documents (the oldest %.0f %%)%n",
        tally.deleted.sum(), ids.size(), 100 * deleteShare);
    boolean cleared = monitor.runUntil(s -> !s.get("writesRefused").asBoolean(), System.nanoTime() + floodTimeout.toNanos());
    check("queries answered during flood stage", tally.queries.sum() > queriesAtFlood, "none between the flood stage and the deletes' end");
    check("writes taken again after the deletes", cleared, "still refused " + floodTimeout + " after the deletes");
    if (cleared) {
      long target = tally.acknowledged.sum() + resumeDocs;
      System.out.printf(Locale.ROOT, "writes taken again; ingesting %,d more documents%n", resumeDocs);
      writing = writers(api, next, o -> {});
      boolean resumed = monitor.runUntil(s -> tally.acknowledged.sum() >= target, System.nanoTime() + floodTimeout.toNanos());
      writing.stop();
      check("documents acknowledged after the flood stage", resumed, "fewer than " + resumeDocs + " within " + floodTimeout);
    }
    searching.stop();
    JsonNode end = monitor.finish();
    long expected = tally.acknowledged.sum() - tally.deleted.sum();
    long counted = end.get("docs").asLong();
    System.out.printf(Locale.ROOT, "end: %,d acknowledged - %,d deleted = %,d expected, %,d counted; pool %s%n",
        tally.acknowledged.sum(), tally.deleted.sum(), expected, counted, mib(monitor.pool));
    check("document count", counted == expected, "counted " + counted + ", expected " + expected);
  }

  /** The ids of the documents {@code bulks} applied, oldest first. */
  private static List<String> acknowledgedIds(List<BulkOutcome> bulks) {
    List<BulkOutcome> sorted = new ArrayList<>(bulks);
    sorted.sort(Comparator.comparingLong(BulkOutcome::from));
    List<String> ids = new ArrayList<>();
    for (BulkOutcome o : sorted) {
      o.applied().stream().forEach(i -> ids.add(CORPUS.document(o.from() + i).id()));
    }
    return ids;
  }

  private void check(String name, boolean ok, String failure) {
    System.out.println("check " + name + ": " + (ok ? "ok" : "FAILED (" + failure + ")"));
    if (!ok) {
      failedChecks.add(name);
    }
  }

  /** Threads that each run {@code body} with their number, started at once. */
  private static final class Workers {
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    Workers(String name, int count, IntConsumer body) {
      for (int i = 0; i < count; i++) {
        int n = i;
        threads.add(Thread.ofPlatform().name(name + "-" + i).start(() -> body.accept(n)));
      }
    }

    boolean running() {
      return running.get();
    }

    /** Whether every thread has ended. */
    boolean done() {
      return threads.stream().noneMatch(Thread::isAlive);
    }

    void join() throws InterruptedException {
      for (Thread t : threads) {
        t.join();
      }
    }

    void stop() throws InterruptedException {
      running.set(false);
      join();
    }
  }

  /** Writers bulk-ingesting documents numbered from {@code next}; each bulk's outcome to {@code sink}. */
  private Workers writers(ApiClient api, AtomicLong next, Consumer<BulkOutcome> sink) {
    Workers[] self = new Workers[1];
    self[0] = new Workers("writer", clients.writers, w -> {
      while (self[0] == null || self[0].running()) {
        long from = next.getAndAdd(clients.batch);
        long t0 = System.nanoTime();
        try {
          BulkOutcome o = LoadWorkload.bulk(api, INDEX, from, from + clients.batch);
          tally.bulkMicros.recordValue((System.nanoTime() - t0) / 1000);
          tally.acknowledged.add(o.acknowledged());
          sink.accept(o);
          o.failed().forEach(status -> tally.fail("bulk", status));
          if (!o.failed().isEmpty()) {
            Thread.sleep(100); // refused (429): retry later, as the answer says
          }
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          tally.fail("bulk", e);
        }
      }
    });
    return self[0];
  }

  private Workers searchers(ApiClient api) {
    List<String> queries = LoadWorkload.queries(null);
    QueryPopularity popularity = new QueryPopularity(queries.size(), 0);
    Workers[] self = new Workers[1];
    self[0] = new Workers("searcher", clients.searchers, s -> {
      SplittableRandom random = new SplittableRandom(s);
      while (self[0] == null || self[0].running()) {
        long t0 = System.nanoTime();
        try {
          api.search(INDEX, queries.get(popularity.next(random)), 10);
          tally.queryMicros.recordValue((System.nanoTime() - t0) / 1000);
          tally.queries.increment();
        } catch (Exception e) {
          tally.fail("search", e);
        }
      }
    });
    return self[0];
  }

  /** Polls {@code _stats} every second, counts pool growths, prints a line per window. */
  private final class Monitor {
    private final ApiClient api;
    private final long start = System.nanoTime();
    private final long initialPool;
    private long pool;
    private int growths;
    /** Consecutive polls that found writes refused. */
    private int refusedPolls;
    private int window;
    private long windowStart = start;
    private long lastAcknowledged;
    private long lastGets;
    private long lastDeleted;
    private Map<String, Long> lastFailures = Map.of();
    private JsonNode stats;

    Monitor(ApiClient api) throws Exception {
      this.api = api;
      stats = api.stats(INDEX);
      initialPool = pool = stats.get("poolBytes").asLong();
    }

    /** Polls until {@code done} holds for a poll (true) or {@code deadline} passes (false). */
    boolean runUntil(Predicate<JsonNode> done, long deadline) throws InterruptedException {
      while (true) {
        poll();
        if (done.test(stats)) {
          return true;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        Thread.sleep(Math.min(1000, left / 1_000_000 + 1));
      }
    }

    /** The last (partial) window's line, unless it is under a second; the final {@code _stats}. */
    JsonNode finish() {
      poll();
      if (System.nanoTime() - windowStart >= 1_000_000_000L) {
        report();
      }
      return stats;
    }

    private void poll() {
      try {
        stats = api.stats(INDEX);
      } catch (Exception e) {
        tally.fail("stats", e);
        return;
      }
      long size = stats.get("poolBytes").asLong();
      if (size > pool) {
        growths++;
      }
      pool = size;
      refusedPolls = stats.get("writesRefused").asBoolean() ? refusedPolls + 1 : 0;
      if (System.nanoTime() - windowStart >= window().toNanos()) {
        report();
      }
    }

    private Duration window() {
      return SoakBenchmark.this.window;
    }

    private void report() {
      double seconds = (System.nanoTime() - windowStart) / 1e9;
      Histogram q = tally.queryMicros.getIntervalHistogram();
      Histogram b = tally.bulkMicros.getIntervalHistogram();
      long acknowledged = tally.acknowledged.sum();
      Map<String, Long> failures = tally.failures();
      Map<String, Long> refused = new TreeMap<>();
      Map<String, Long> errors = new TreeMap<>();
      failures.forEach((k, v) -> {
        long n = v - lastFailures.getOrDefault(k, 0L);
        if (n > 0) {
          (REFUSALS.contains(k) ? refused : errors).put(k, n);
        }
      });
      long used = stats.get("poolUsedBytes").asLong();
      System.out.printf(
          Locale.ROOT,
          "window %d [%s-%s]: acknowledged %,d (%,.0f docs/s), bulk P50 %,d µs P99 %,d µs | queries %,d (%,.0f q/s)"
              + " P50 %,d µs P99 %,d µs | gets %,d, deletes %,d | refused (429) %s | errors %s"
              + " | docs %,d, pool %s, used %s (%.1f %%), growths so far %d, writes refused %s%n",
          ++window, clock(windowStart), clock(System.nanoTime()), acknowledged - lastAcknowledged,
          (acknowledged - lastAcknowledged) / seconds, b.getValueAtPercentile(50), b.getValueAtPercentile(99),
          q.getTotalCount(), q.getTotalCount() / seconds, q.getValueAtPercentile(50), q.getValueAtPercentile(99),
          tally.gets.sum() - lastGets, tally.deleted.sum() - lastDeleted, refused.isEmpty() ? "none" : refused,
          errors.isEmpty() ? "none" : errors, stats.get("docs").asLong(), mib(pool), mib(used), 100.0 * used / pool,
          growths, stats.get("writesRefused").asBoolean() ? "yes" : "no");
      windowStart = System.nanoTime();
      lastAcknowledged = acknowledged;
      lastGets = tally.gets.sum();
      lastDeleted = tally.deleted.sum();
      lastFailures = failures;
    }

    private String clock(long nanos) {
      long s = (nanos - start) / 1_000_000_000L;
      return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
  }

  /** How far the configured pool grows while serving: off, unbounded or up to a size. */
  private static String growthLimit(ServerConfig config) {
    if (!config.poolGrowth().enabled()) {
      return "off";
    }
    return config.poolMaxBytes() == PoolGrowth.UNBOUNDED
        ? "unbounded (keeping the file system's margin free)"
        : "up to " + mib(config.poolMaxBytes());
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%,.1f MiB", bytes / 1048576.0);
  }
}
