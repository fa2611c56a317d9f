package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.CacheOutcome;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.realtime.RtSearchResult;
import org.lucenenvm.store.NvmDirectory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH micro-benchmark of the result cache's hit path: a generated corpus is ingested into the
 * real-time engine in {@link DurabilityMode#GRACEFUL} mode in {@value #SEGMENTS} full segments, the
 * pipeline left to settle ({@link PipelineIdle}: every segment flushed and in the statistics
 * epoch), closed and reopened, so nothing is live; then {@code tailDocs} more documents are added
 * (a live tail, fewer than a segment, so nothing flushes; 0: a static engine) and each query of a
 * task category runs once to fill the cache. {@link #hit()} is one top-10 search through the
 * engine's search path (a snapshot, the cache lookup, the search of the live tail, the merge, the
 * result), and setup fails unless every query is then a hit; {@link #miss()} drops the query's
 * entry first; {@link #uncached()} is the same search without the cache, for comparison. Nothing ingests while it measures. Both tiers ({@code tier=dram,nvm}); the pool lives under {@code java.io.tmpdir}
 * (run with {@code -Djava.io.tmpdir=/dev/shm/...} for a tmpfs pool). E.g. {@code java -jar
 * benchmarks.jar jmh CacheHitBenchmark -f 1 -p tier=dram,nvm}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CacheHitBenchmark {

  private static final int K = 10;
  /** Segments of the corpus: {@code docs} must be a multiple, so that no document stays live. */
  private static final int SEGMENTS = 5;
  private static final long POOL_BYTES = 1L << 30;
  private static final long CACHE_BYTES = 64L << 20;

  /** The cache's tier: {@code dram} or {@code nvm}. */
  @Param({"dram", "nvm"})
  public String tier;

  /** Task category of the generated tasks. */
  @Param({"TermHigh", "TermLow", "AndHighHigh", "OrHighHigh"})
  public String category;

  /** Documents of the generated corpus in its flushed segments. */
  @Param({"50000"})
  public int docs;

  /** Documents added after the reopen, live in the tail that every search (hit or not) searches. */
  @Param({"0", "2000"})
  public int tailDocs;

  private Path temp;
  private NvmDirectory directory;
  private RtEngine engine;
  private QueryCycle queries;

  /** Generates the corpus, builds the engine's index, reopens it and fills the cache. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (docs % SEGMENTS != 0) {
      throw new IllegalArgumentException("docs must be a multiple of " + SEGMENTS + ", got " + docs);
    }
    if (tailDocs < 0 || tailDocs >= docs / SEGMENTS) {
      throw new IllegalArgumentException("tailDocs must be in [0, " + docs / SEGMENTS + "), got " + tailDocs);
    }
    temp = Files.createTempDirectory("jmh-cache-hit");
    Path corpus = temp.resolve("corpus.txt");
    Path pool = temp.resolve(Configurations.POOL_FILE);
    List<Task> tasks = new CorpusGenerator(new GeneratorSettings(docs + tailDocs, 42, 200_000, 1.0, 1024, 200))
        .generate(corpus, temp.resolve("corpus.tasks"));
    try (Analyzer analyzer = new StandardAnalyzer()) {
      queries = new QueryCycle(Workload.parse(tasks, List.of(category), DocumentFactory.BODY, analyzer, 1).queries(category));
      RtEngineConfig config = RtEngineConfig.defaults(EngineTarget.SCHEMA)
          .withAnalyzer(analyzer)
          .withMode(DurabilityMode.GRACEFUL)
          .withSegmentSize(docs / SEGMENTS)
          .withResultCache(ResultCacheSettings.of(ResultCacheSettings.Tier.parse(tier), CACHE_BYTES, CachePolicy.Kind.LRU, 0));
      try (NvmDirectory building = NvmDirectory.open(pool, POOL_BYTES); RtEngine writer = RtEngine.open(building, config)) {
        long[] id = {0};
        CorpusIngest.ingest(corpus, docs, doc -> writer.add(EngineDocuments.of(id[0]++, doc)), acked -> {}, "jmh cache ingest");
        PipelineIdle.await(writer);
      }
      directory = NvmDirectory.open(pool, POOL_BYTES);
      engine = RtEngine.open(directory, config);
      EngineDocuments.addRange(engine, corpus, docs, tailDocs); // while the engine's analyzer is open
    }
    for (Query q : queries.all()) {
      engine.search(hitsOnly(q));
    }
    for (Query q : queries.all()) {
      CacheOutcome outcome = engine.search(hitsOnly(q)).cache();
      if (outcome != CacheOutcome.HIT) {
        throw new IllegalStateException("not a cache hit (" + outcome + "): " + q + ", " + engine.cacheStats());
      }
      if (!engine.evictCached(q) || engine.search(hitsOnly(q)).cache() != CacheOutcome.MISS) {
        throw new IllegalStateException("not a miss after its entry was dropped: " + q);
      }
    }
  }

  /** A top-{@value #K} search of {@code q} whose hits carry only scores, through the cache. */
  private static RtSearchRequest hitsOnly(Query q) {
    return RtSearchRequest.of(q, K).withoutStoredFields();
  }

  /** Closes the engine and deletes the pool and corpus. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    IOUtils.close(engine, directory);
    WorkDirectories.delete(temp);
  }

  /** One query answered by its cache entry, cycling through the category's tasks. */
  @Benchmark
  public RtSearchResult hit() throws IOException {
    return engine.search(hitsOnly(queries.next()));
  }

  /**
   * The same query as a miss: its entry is dropped ({@link RtEngine#evictCached}, a write lock and
   * the policy's removal, included in the time), then searched with the cache, which searches the
   * epoch segments and the tail, merges, and admits the result again; against {@link #uncached()},
   * what a miss costs beyond the search itself for the same queries.
   */
  @Benchmark
  public RtSearchResult miss() throws IOException {
    Query q = queries.next();
    engine.evictCached(q);
    return engine.search(hitsOnly(q));
  }

  /** The same query searched without the cache. */
  @Benchmark
  public RtSearchResult uncached() throws IOException {
    return engine.search(hitsOnly(queries.next()).withCache(false));
  }
}
