package org.lucenenvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtEngineStats;
import org.lucenenvm.realtime.RtSchema;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.realtime.RtSearchResult;
import org.lucenenvm.realtime.RtSnapshot;
import org.lucenenvm.store.NvmDirectory;

/**
 * The real-time engine ({@link RtEngine}) as a {@link RealTimeTarget}: an {@link NvmDirectory} on a
 * pool file in the work directory, documents mapped field by field as {@link DocumentFactory} maps
 * them for NRT (title analysed and stored, date one stored keyword, body analysed and not stored;
 * the engine also indexes and stores its implicit id, which NRT has not), the benchmark's analyzer.
 * Queries never refresh: each takes a snapshot of every acknowledged document, runs on the
 * engine's one search path ({@link RtSnapshot#search}, without loading stored fields, as NRT's
 * {@code IndexSearcher.search}), and its visible count is the snapshot reader's own {@code
 * numDocs()}.
 *
 * <p>Twice a second a sampler reads {@link RtEngine#stats()} for the DRAM and live-segment bytes
 * and the segments per partition.
 * {@link #finish()} times {@link RtEngine#close()} and, in {@link DurabilityMode#GRACEFUL} and
 * {@link DurabilityMode#CRASH_CONSISTENT} modes, reopens the pool: from {@code NvmDirectory.open}
 * to the first query's result (the restart time; crash-consistent: including the replay of the
 * live segment's operations, which close leaves in the ingest log), then runs the rest of the
 * first {@value #RESTART_QUERIES} queries of the stream (with a cache: its hit rate after the
 * restart) and counts the documents the reopened engine holds. With a result cache, queries go
 * through it ({@link RtSnapshot#search(RtSearchRequest)}) and its counters at the end of
 * ingestion are facts too, with the engine's search time (without taking the snapshot) of the
 * queries started after the warm-up share, hits and misses apart ({@link CacheOutcomeLatency});
 * with {@link RtCache#paired()} each of those queries also runs bypassing the cache ({@link
 * PairedCacheTime}), so the row's own query rate counts pairs. The facts go to a consumer.
 */
public final class EngineTarget implements RealTimeTarget {

  /** The engine's schema for the benchmark's documents. */
  static final RtSchema SCHEMA =
      RtSchema.builder().text(DocumentFactory.TITLE).keyword(DocumentFactory.DATE).text(DocumentFactory.BODY, false).build();

  private static final long SAMPLE_MILLIS = 500;

  private final EngineSettings settings;
  private final RtEngineConfig config;
  private final Path pool;
  private final List<Query> restartQueries;
  private final Consumer<EngineFacts> facts;
  /** Whether {@link #warmupReached()} waits for an idle pipeline (a static window). */
  private final boolean settle;
  private final NvmDirectory directory;
  private final RtEngine engine;
  private final ScheduledExecutorService sampler;
  /** Searches the partitions of a query in parallel (null with one partition). */
  private final ExecutorService partitionSearches;
  private final AtomicLong maxDram = new AtomicLong();
  private final AtomicLong maxLive = new AtomicLong();
  private final AtomicLong maxSegments = new AtomicLong();
  /** The engine's search time by cache outcome, of searches started once timing began. */
  private final CacheOutcomeLatency cacheLatency = new CacheOutcomeLatency();
  /** The cache's outcome of the same searches, per query category. */
  private final CategoryCacheOutcomes categoryOutcomes;
  /** With {@link RtCache#paired()}: the timed queries' cached and uncached search times; else null. */
  private final PairedCacheTime pairedTime;
  private volatile boolean timing;
  private long nextId;
  private long ingested;
  private boolean finished;

  private EngineTarget(EngineSettings settings, RtEngineConfig config, Path pool, List<Query> restartQueries, Consumer<EngineFacts> facts,
      boolean settle, Workload workload) throws IOException {
    this.settings = settings;
    this.categoryOutcomes = new CategoryCacheOutcomes(workload.byCategory());
    this.pairedTime = settings.cache().paired() ? new PairedCacheTime() : null;
    this.settle = settle;
    this.config = config;
    this.pool = pool;
    this.restartQueries = restartQueries;
    this.facts = facts;
    this.directory = NvmDirectory.open(pool, settings.poolBytes());
    this.partitionSearches = settings.partitions() == 1 ? null
        : Executors.newFixedThreadPool(settings.partitions(), r -> Thread.ofPlatform().daemon().name("rt-partition-search").unstarted(r));
    RtEngine opened = null;
    try {
      opened = RtEngine.open(directory, config, partitionSearches);
    } finally {
      if (opened == null) {
        directory.close();
        stopPartitionSearches();
      }
    }
    this.engine = opened;
    this.sampler = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("rt-stats-sampler").unstarted(r));
    sampler.scheduleAtFixedRate(this::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Queries replayed after a graceful restart to measure the restarted cache's hit rate. */
  public static final int RESTART_QUERIES = 1000;

  /**
   * A factory of engine targets for the queries of {@code workload}; {@code restartQueries} are run after a graceful restart (the
   * first one's result ends the restart time; with a cache, all of them give its hit rate), {@code
   * facts} receives each run's {@link EngineFacts}. With {@code settle} (a static window, {@link
   * RunSettings#staticWindow()}), {@link #warmupReached()} waits until the engine's
   * pipeline is idle ({@link PipelineIdle}).
   */
  public static Factory factory(
      EngineSettings settings, Workload workload, Analyzer analyzer, List<Query> restartQueries, Consumer<EngineFacts> facts,
      boolean settle) {
    RtEngineConfig config = engineConfig(settings, analyzer);
    return workDir -> new EngineTarget(settings, config, workDir.resolve(Configurations.POOL_FILE), restartQueries, facts, settle, workload);
  }

  /**
   * The engine's configuration for {@code settings}; a setting the engine rejects (e.g. a segment
   * limit below its minimum) throws {@link IllegalArgumentException}.
   */
  static RtEngineConfig engineConfig(EngineSettings settings, Analyzer analyzer) {
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withAnalyzer(analyzer)
            .withCodec(settings.codec())
            .withSegmentSize(settings.segmentSize())
            .withDramBudgetBytes(settings.dramBudgetBytes())
            .withPolicy(settings.policy())
            .withMode(settings.mode())
            .withPartitions(settings.partitions())
            .withResultCache(settings.cache().settings());
    return settings.tuning().applyTo(config);
  }

  @Override
  public void add(LineDoc doc) {
    engine.add(EngineDocuments.of(nextId++, doc));
    ingested++;
  }

  @Override
  public void warmupReached() throws IOException {
    if (settle) {
      PipelineIdle.await(engine);
    }
    timing = true;
  }

  @Override
  public View acquire(long sequence, LongSupplier acknowledged) throws IOException {
    long acked = acknowledged.getAsLong();
    RtSnapshot snapshot = engine.acquireSnapshot();
    return new View((query, k) -> search(snapshot, query, k), snapshot.reader().numDocs(), acked, snapshot);
  }

  /** A top-{@code k} search of {@code query} whose hits carry only scores, through the cache. */
  private static RtSearchRequest request(Query query, int k) {
    return RtSearchRequest.of(query, k).withoutStoredFields();
  }

  /**
   * The engine's search path; once timing began, its time goes to {@link #cacheLatency} by cache
   * outcome, and to {@link #categoryOutcomes} by outcome and query category, and with {@link
   * #pairedTime} the query also runs bypassing the cache, just before or just after.
   */
  private TotalHits search(RtSnapshot snapshot, Query query, int k) throws IOException {
    if (!timing) {
      return snapshot.search(request(query, k)).totalHits();
    }
    boolean uncachedFirst = pairedTime != null && pairedTime.nextUncachedFirst();
    long uncachedNanos = uncachedFirst ? uncachedSearchNanos(snapshot, query, k) : -1;
    long start = System.nanoTime();
    RtSearchResult result = snapshot.search(request(query, k));
    long nanos = System.nanoTime() - start;
    cacheLatency.record(result.cache(), nanos);
    if (pairedTime != null) {
      if (!uncachedFirst) {
        uncachedNanos = uncachedSearchNanos(snapshot, query, k);
      }
      pairedTime.record(result.cache(), nanos, uncachedNanos);
    }
    categoryOutcomes.record(query, result.cache(), nanos, uncachedNanos); // -1: not paired
    return result.totalHits();
  }

  /** The time of one search of {@code query} on {@code snapshot} that bypasses the cache. */
  private long uncachedSearchNanos(RtSnapshot snapshot, Query query, int k) throws IOException {
    long start = System.nanoTime();
    snapshot.search(request(query, k).withCache(false));
    return System.nanoTime() - start;
  }

  @Override
  public long indexBytes() throws IOException {
    return engine.stats().nvmBytes();
  }

  @Override
  public void finish() throws IOException {
    finished = true;
    stopSampler();
    RtEngineStats end = engine.stats();
    ResultCacheStats cacheAtEnd = engine.cacheStats();
    long start = System.nanoTime();
    engine.close();
    double closeMillis = (System.nanoTime() - start) / 1e6;
    directory.close();
    double reopenMillis = -1;
    long reopenedDocs = -1;
    long reopenedNvmBytes = -1;
    ResultCacheStats cacheAfterRestart = null;
    if (settings.mode() != DurabilityMode.VOLATILE) { // crash-consistent: replays the live segment's operations
      start = System.nanoTime();
      try (NvmDirectory reopenedDirectory = NvmDirectory.open(pool, settings.poolBytes());
          RtEngine reopened = RtEngine.open(reopenedDirectory, config)) {
        reopened.search(request(restartQueries.getFirst(), 10));
        reopenMillis = (System.nanoTime() - start) / 1e6;
        for (Query q : restartQueries.subList(1, restartQueries.size())) {
          reopened.search(request(q, 10));
        }
        cacheAfterRestart = reopened.cacheStats();
        try (RtSnapshot snapshot = reopened.acquireSnapshot()) {
          reopenedDocs = snapshot.reader().numDocs();
        }
        reopenedNvmBytes = reopened.stats().nvmBytes();
      }
      if (reopenedDocs != ingested) {
        throw new IllegalStateException("the reopened engine holds " + reopenedDocs + " documents, " + ingested + " were acknowledged");
      }
    }
    EngineFacts result = new EngineFacts(settings.label(), ingested, settings.dramBudgetBytes(), end.peakDramBytes(),
        Math.max(maxDram.get(), end.dramBytes()), end.largestDramSegmentBytes(), Math.max(maxLive.get(), end.liveSegmentBytes()),
        end.dramBytes(), end.nvmBytes(), end.segments().toString(),
        (int) Math.max(maxSegments.get(), end.maxSegmentsPerPartition()), closeMillis, reopenMillis, reopenedDocs, reopenedNvmBytes,
        end.segmentWaitNanos() / 1e6, cacheAtEnd, cacheAfterRestart, cacheAtEnd == null ? null : cacheLatency,
        cacheAtEnd == null ? null : categoryOutcomes, pairedTime);
    System.err.println(settings.label() + ": " + result);
    facts.accept(result);
  }

  private void sample() {
    try {
      RtEngineStats stats = engine.stats();
      maxDram.accumulateAndGet(stats.dramBytes(), Math::max);
      maxLive.accumulateAndGet(stats.liveSegmentBytes(), Math::max);
      maxSegments.accumulateAndGet(stats.maxSegmentsPerPartition(), Math::max);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (IllegalStateException closed) {
      // the engine closed between the last sample and the sampler's shutdown
    }
  }

  private void stopSampler() {
    sampler.shutdownNow();
    try {
      sampler.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopPartitionSearches() {
    if (partitionSearches != null) {
      partitionSearches.shutdownNow();
    }
  }

  @Override
  public void close() throws IOException {
    stopSampler();
    try {
      if (!finished) {
        IOUtils.close(engine, directory);
      }
    } finally {
      stopPartitionSearches();
    }
  }
}
