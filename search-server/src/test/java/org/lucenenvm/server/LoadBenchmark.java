package org.lucenenvm.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.demo.SyntheticCorpus;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.server.LoadWorkload.QueryPopularity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A bounded load test on loopback: writer threads bulk-ingest a synthetic corpus while searcher
 * threads run queries, first through the HTTP API of a {@link SearchServer}, then against the same
 * engine called directly (an {@link IndexRegistry} without HTTP). Bounded by a document count and
 * a time limit per phase. Reports throughput, P50/P99 latencies, errors, and whether every
 * acknowledged document is in the index afterwards. With {@code --caches} the two phases run once
 * per result cache setting (e.g. {@code off,lru,gdsf}), each reporting its hit rate; {@code --zipf}
 * draws the queries with Zipf popularity and {@code --query-field} qualifies their words with one
 * field (unqualified, as users type them, the cache keys a word and {@code title:a OR body:b}, not
 * {@code a AND b}). Run with {@code scripts/server-load.sh}; its
 * {@code soak} subcommand is {@link SoakBenchmark}.
 */
@Command(name = "server-load", mixinStandardHelpOptions = true, subcommands = SoakBenchmark.class)
public final class LoadBenchmark implements Callable<Integer> {
  @Option(names = "--docs", defaultValue = "40000", description = "Documents per phase (default: ${DEFAULT-VALUE}).")
  long docs;

  @Mixin LoadClients clients;

  @Option(names = "--max-seconds", defaultValue = "45", description = "Time limit per phase (default: ${DEFAULT-VALUE}).")
  int maxSeconds;

  @Option(names = "--warmup-docs", defaultValue = "10000", description = "Documents ingested on each path before measuring (default: ${DEFAULT-VALUE}).")
  long warmupDocs;

  @Option(names = "--codec", defaultValue = "NvmCodec", description = "Segment codec (default: ${DEFAULT-VALUE}).")
  String codec;

  @Option(names = "--segment-size", defaultValue = "5000", description = "Documents per live segment (default: ${DEFAULT-VALUE}); the cache serves only once segments hold at least as many documents as the live tail.")
  int segmentSize;

  @Option(names = "--caches", split = ",", defaultValue = "off", description = "Result caches to run the phases with, one run each: off, lru, dlirs or gdsf, e.g. off,lru,gdsf (default: ${DEFAULT-VALUE}).")
  List<String> caches;

  @Option(names = "--cache-size", converter = ByteSize.class, defaultValue = "64m", description = "Size of each result cache (DRAM tier) (default: 64m).")
  long cacheSize;

  @Option(names = "--zipf", defaultValue = "0", description = "Query popularity: 0 draws the 1,000 queries uniformly, s > 0 the query of rank r with probability proportional to 1/r^s (default: ${DEFAULT-VALUE}).")
  double zipf;

  @Option(names = "--query-field", description = "Field that qualifies every query word (e.g. body); default: unqualified words over title and body, as users type them (the cache keys a word and title:a OR body:b; a AND b, a conjunction of per-word disjunctions, bypasses it, as do phrases).")
  String queryField;

  private static final SyntheticCorpus CORPUS = LoadWorkload.CORPUS;
  private static final int IDLE_QUERIES = 500;
  private static final String SCHEMA = "title:text,body:text,tag:keyword,url:stored";

  /** One way to reach the index. */
  private interface Target {
    /** Ingests documents {@code [from, to)}; returns how many were acknowledged. */
    long ingest(long from, long to) throws Exception;

    /** Runs a query; returns its total hits. */
    long search(String query) throws Exception;

    /** Documents in the index now. */
    long count() throws Exception;
  }

  /** Counts of one phase. */
  private static final class Phase {
    final Histogram ingestMicros = new Histogram(60_000_000L, 3);
    final Histogram queryMicros = new Histogram(60_000_000L, 3);
    final Histogram idleQueryMicros = new Histogram(60_000_000L, 3);
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicLong errors5xx = new AtomicLong();
    final AtomicLong errors4xx = new AtomicLong();
    final AtomicLong otherErrors = new AtomicLong();
    long nanos;
    long counted;
    /** The index's cache counters at the end of the phase, or null without a cache. */
    ResultCacheStats cache;
  }

  @Override
  public Integer call() throws Exception {
    ServerConfig config =
        ServerConfig.builder()
            .port(0)
            .dataDir(Files.createTempDirectory("server-load"))
            .poolSizeBytes(512L << 20)
            .mode(DurabilityMode.VOLATILE)
            .segmentSize(segmentSize)
            .dramBudgetBytes(32L << 20)
            .codec(codec)
            .partitions(clients.partitions)
            .maxBodyBytes(64L << 20)
            .build();
    System.out.printf(
        Locale.ROOT,
        "server-load: %,d docs per phase, %d-doc bulk requests, %d writer + %d searcher threads,"
            + " %d partitions, %,d-doc segments, codec %s, limit %d s per phase, %d cores; caches %s"
            + " (%,d bytes each), query popularity %s, query words %s%n",
        docs, clients.batch, clients.writers, clients.searchers, clients.partitions, segmentSize, codec, maxSeconds,
        Runtime.getRuntime().availableProcessors(), caches, cacheSize,
        zipf > 0 ? "Zipf " + zipf : "uniform",
        queryField == null ? "unqualified" : "in " + queryField);
    List<String> queries = LoadWorkload.queries(queryField);
    QueryPopularity popularity = new QueryPopularity(queries.size(), zipf);
    if (warmupDocs > 0) {
      runHttp(config, "warmup-http", warmupDocs, queries, popularity);
      runDirect(config, "warmup-direct", warmupDocs, queries, popularity);
      System.out.printf(Locale.ROOT, "warm-up done (%,d docs on each path, not reported)%n", warmupDocs);
    }
    boolean ok = true;
    for (String cache : caches) {
      ServerConfig cached = in(config, "cache-" + cache, cacheSettings(cache));
      Phase http = runHttp(cached, "http", docs, queries, popularity);
      Phase direct = runDirect(cached, "direct", docs, queries, popularity);
      report("http", cache, http);
      report("direct", cache, direct);
      System.out.printf(
          Locale.ROOT,
          "cache %s: HTTP overhead: ingest throughput %.2fx of direct; query under ingest P50 +%,d µs,"
              + " P99 +%,d µs; query alone P50 +%,d µs over direct%n",
          cache,
          rate(http.acknowledged.get(), http.nanos) / rate(direct.acknowledged.get(), direct.nanos),
          http.queryMicros.getValueAtPercentile(50) - direct.queryMicros.getValueAtPercentile(50),
          http.queryMicros.getValueAtPercentile(99) - direct.queryMicros.getValueAtPercentile(99),
          http.idleQueryMicros.getValueAtPercentile(50) - direct.idleQueryMicros.getValueAtPercentile(50));
      ok &= http.errors5xx.get() == 0 && http.otherErrors.get() == 0 && http.errors4xx.get() == 0
          && http.counted == http.acknowledged.get() && direct.counted == direct.acknowledged.get();
    }
    IOUtils.rm(config.dataDir());
    System.out.println(ok ? "RESULT ok: zero errors, zero lost documents" : "RESULT FAILED: see the error and document counts");
    return ok ? 0 : 1;
  }

  /** The result cache named {@code name}: off, or a DRAM cache of {@code --cache-size} with that policy. */
  private ResultCacheSettings cacheSettings(String name) {
    return name.equals("off")
        ? ResultCacheSettings.DISABLED
        : ResultCacheSettings.of(ResultCacheSettings.Tier.DRAM, cacheSize, CachePolicy.Kind.parse(name), 0);
  }

  private static double rate(long n, long nanos) {
    return n / (nanos / 1e9);
  }

  private Phase runHttp(
      ServerConfig base, String name, long count, List<String> queries, QueryPopularity popularity)
      throws Exception {
    try (SearchServer server = new SearchServer(in(base, name, base.cache())).start();
        ApiClient api = new ApiClient(server.uri(), null)) {
      api.createIndex("load", SyntheticCorpus.indexSpec(clients.partitions));
      Phase phase = run(new HttpTarget(api), count, queries, popularity);
      phase.cache = server.indexes().get("load").engine().cacheStats();
      return phase;
    }
  }

  private Phase runDirect(
      ServerConfig base, String name, long count, List<String> queries, QueryPopularity popularity)
      throws Exception {
    try (IndexRegistry registry =
        IndexRegistry.open(in(base, name, base.cache()), SearchServer.newObjectMapper())) {
      OpenIndex index =
          registry.create(
              new IndexDefinition(
                  "load", Schemas.toMap(Schemas.parse(SCHEMA)), clients.partitions));
      Phase phase = run(new DirectTarget(index), count, queries, popularity);
      phase.cache = index.engine().cacheStats();
      return phase;
    }
  }

  /** {@code base} with its data directory moved to a subdirectory {@code name} and {@code cache}. */
  private static ServerConfig in(ServerConfig base, String name, ResultCacheSettings cache) {
    return base.toBuilder().dataDir(base.dataDir().resolve(name)).cache(cache).build();
  }

  private Phase run(Target target, long docs, List<String> queries, QueryPopularity popularity)
      throws Exception {
    Phase phase = new Phase();
    AtomicLong next = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);
    long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
    List<Thread> writerThreads = new ArrayList<>();
    List<Thread> searcherThreads = new ArrayList<>();
    long start = System.nanoTime();
    for (int w = 0; w < clients.writers; w++) {
      writerThreads.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
        Histogram local = new Histogram(60_000_000L, 3);
        for (long from = next.getAndAdd(clients.batch); from < docs && System.nanoTime() < deadline; from = next.getAndAdd(clients.batch)) {
          long t0 = System.nanoTime();
          try {
            phase.acknowledged.addAndGet(target.ingest(from, Math.min(docs, from + clients.batch)));
            local.recordValue((System.nanoTime() - t0) / 1000);
          } catch (PartialBulk e) {
            phase.acknowledged.addAndGet(e.acknowledged);
            count(phase, e.failure);
          } catch (Exception e) {
            count(phase, e);
          }
        }
        synchronized (phase.ingestMicros) {
          phase.ingestMicros.add(local);
        }
      }));
    }
    for (int s = 0; s < clients.searchers; s++) {
      int seed = s;
      searcherThreads.add(Thread.ofPlatform().name("searcher-" + s).start(() -> {
        Histogram local = new Histogram(60_000_000L, 3);
        SplittableRandom r = new SplittableRandom(seed);
        while (writing.get() && System.nanoTime() < deadline) {
          long t0 = System.nanoTime();
          try {
            target.search(queries.get(popularity.next(r)));
            local.recordValue((System.nanoTime() - t0) / 1000);
          } catch (Exception e) {
            count(phase, e);
          }
        }
        synchronized (phase.queryMicros) {
          phase.queryMicros.add(local);
        }
      }));
    }
    for (Thread t : writerThreads) {
      t.join();
    }
    writing.set(false);
    for (Thread t : searcherThreads) {
      t.join();
    }
    phase.nanos = System.nanoTime() - start;
    phase.counted = target.count();
    SplittableRandom idle = new SplittableRandom(-1);
    for (int i = 0; i < IDLE_QUERIES; i++) {
      long t0 = System.nanoTime();
      try {
        target.search(queries.get(popularity.next(idle)));
        phase.idleQueryMicros.recordValue((System.nanoTime() - t0) / 1000);
      } catch (Exception e) {
        count(phase, e);
      }
    }
    return phase;
  }

  private static void count(Phase phase, Exception e) {
    if (e instanceof ApiException api && api.status() >= 500) {
      phase.errors5xx.incrementAndGet();
    } else if (e instanceof ApiException) {
      phase.errors4xx.incrementAndGet();
    } else {
      phase.otherErrors.incrementAndGet();
    }
    System.err.println("error: " + e);
  }

  private void report(String mode, String cache, Phase p) {
    double seconds = p.nanos / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%-6s cache %s  %.1f s  ingest: %,d docs acknowledged, %,.0f docs/s, %d-doc batch P50 %,d µs P99 %,d µs"
            + "  |  search: %,d queries, %,.0f q/s, P50 %,d µs P99 %,d µs max %,d µs"
            + "  |  errors: 5xx %d, 4xx %d, other %d  |  docs counted after: %,d (%s)"
            + "  |  then %d queries one at a time, no ingest: P50 %,d µs P99 %,d µs%n",
        mode,
        cache,
        seconds,
        p.acknowledged.get(),
        p.acknowledged.get() / seconds,
        clients.batch,
        p.ingestMicros.getValueAtPercentile(50),
        p.ingestMicros.getValueAtPercentile(99),
        p.queryMicros.getTotalCount(),
        p.queryMicros.getTotalCount() / seconds,
        p.queryMicros.getValueAtPercentile(50),
        p.queryMicros.getValueAtPercentile(99),
        p.queryMicros.getMaxValue(),
        p.errors5xx.get(),
        p.errors4xx.get(),
        p.otherErrors.get(),
        p.counted,
        p.counted == p.acknowledged.get() ? "none lost" : "MISMATCH",
        p.idleQueryMicros.getTotalCount(),
        p.idleQueryMicros.getValueAtPercentile(50),
        p.idleQueryMicros.getValueAtPercentile(99));
    if (p.cache != null) {
      long queries = p.queryMicros.getTotalCount() + p.idleQueryMicros.getTotalCount();
      long hits = p.cache.hits() + p.cache.partialHits();
      System.out.printf(
          Locale.ROOT,
          "%-6s cache %s  hit rate %.1f %% of %,d queries (hits %,d, partial hits %,d, misses %,d,"
              + " bypassed %,d; tail resumes %,d, evictions %,d, invalidations %,d)%n",
          mode, cache, 100.0 * hits / Math.max(1, queries), queries, p.cache.hits(),
          p.cache.partialHits(), p.cache.misses(), queries - hits - p.cache.misses(),
          p.cache.tailResumes(), p.cache.evictions(), p.cache.invalidations());
    }
  }

  /** A bulk request some of whose lines failed: how many were applied, and the first failure. */
  private static final class PartialBulk extends Exception {
    final long acknowledged;
    final ApiException failure;

    PartialBulk(long acknowledged, ApiException failure) {
      super(failure);
      this.acknowledged = acknowledged;
      this.failure = failure;
    }
  }

  /** Through the HTTP API. */
  private static final class HttpTarget implements Target {
    private final ApiClient api;

    HttpTarget(ApiClient api) {
      this.api = api;
    }

    @Override
    public long ingest(long from, long to) throws Exception {
      LoadWorkload.BulkOutcome outcome = LoadWorkload.bulk(api, "load", from, to);
      if (outcome.firstFailure() != null) {
        throw new PartialBulk(outcome.acknowledged(), outcome.firstFailure());
      }
      return outcome.acknowledged();
    }

    @Override
    public long search(String query) throws Exception {
      return api.search("load", query, 10).get("total_hits").asLong();
    }

    @Override
    public long count() throws Exception {
      return api.stats("load").get("docs").asLong();
    }
  }

  /** The same engine, called in process (documents built as objects, no JSON, no HTTP). */
  private static final class DirectTarget implements Target {
    private final OpenIndex index;

    DirectTarget(OpenIndex index) {
      this.index = index;
    }

    @Override
    public long ingest(long from, long to) {
      for (long n = from; n < to; n++) {
        RtDocument doc = CORPUS.document(n);
        index.engine().add(doc);
      }
      return to - from;
    }

    @Override
    public long search(String query) throws Exception {
      return index
          .search(RtSearchRequest.of(index.parse(query, QueryLimits.DEFAULTS), 10))
          .totalHits()
          .value();
    }

    @Override
    public long count() throws Exception {
      return IndexStats.of(index).docs();
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new LoadBenchmark()).execute(args));
  }
}
