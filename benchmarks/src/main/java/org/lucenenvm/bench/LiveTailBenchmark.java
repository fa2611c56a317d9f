package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.realtime.RtSearchResult;
import org.lucenenvm.server.ByteSize;
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
 * What a live tail costs a query on an otherwise unchanged index: the engine's segments are built
 * once (the first {@code docs} documents of {@code corpus}, ingested in {@link
 * DurabilityMode#GRACEFUL} mode with the runner's schema and segment size, the pipeline left to
 * settle, closed) and kept as a pool file under {@code poolCache}; every trial opens a copy of that
 * pool, so every fork searches the same Lucene segments, then adds the next {@code tailDocs}
 * documents (live, fewer than a segment, so nothing flushes; 0: no live tail). {@link #search()}
 * is one top-10 search through the engine's search path, without stored fields or cache, cycling
 * through the tasks of every category of {@code tasks} (or of {@code category} only) in a seeded
 * shuffled order, as the runner's query stream mixes them. Nothing ingests while it measures.
 * E.g. {@code java -jar benchmarks.jar jmh LiveTailBenchmark -f 3 -p corpus=data/c1m.txt -p
 * tasks=data/c1m.tasks -p docs=995000 -p poolCache=/dev/shm/tail-pools}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LiveTailBenchmark {

  private static final int K = 10;
  private static final int SEGMENT_SIZE = 10_000;

  /** Line-doc corpus; it must hold at least {@code docs + tailDocs} documents. */
  @Param({"data/c1m.txt"})
  public String corpus;

  /** luceneutil tasks file of the corpus. */
  @Param({"data/c1m.tasks"})
  public String tasks;

  /** Documents in the engine's flushed segments. */
  @Param({"995000"})
  public int docs;

  /** Documents added live after the reopen. */
  @Param({"0", "100", "5000"})
  public int tailDocs;

  /** Only this luceneutil task category (e.g. {@code TermLow}); empty: every category, mixed. */
  @Param({""})
  public String category;

  /**
   * Size of the engine's pool (e.g. {@code 6g}, enough for the 1 M corpus; {@code 2g} for 200 K):
   * every trial copies it whole, so it bounds what a run takes of {@code poolCache}'s file system
   * (twice this while a trial runs).
   */
  @Param({"6g"})
  public String poolSize;

  /** Where the built pool is kept between trials and forks (built when absent). */
  @Param({"/dev/shm/lucene-nvm-live-tail"})
  public String poolCache;

  private long poolBytes;
  private Path trialPool;
  private NvmDirectory directory;
  private RtEngine engine;
  private QueryCycle queries;

  /** Opens a copy of the built pool (building it first if needed) and adds the live tail. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (tailDocs < 0 || tailDocs >= SEGMENT_SIZE) {
      throw new IllegalArgumentException("tailDocs must be in [0, " + SEGMENT_SIZE + "), got " + tailDocs);
    }
    poolBytes = ByteSize.parse(poolSize);
    Path corpusFile = Path.of(corpus);
    try (Analyzer analyzer = new StandardAnalyzer()) {
      Workload workload = Workload.parse(TaskFile.read(Path.of(tasks)), List.of(), DocumentFactory.BODY, analyzer, 42);
      List<Query> stream = new ArrayList<>();
      workload.byCategory().forEach((name, queriesOfCategory) -> {
        if (category.isEmpty() || category.equals(name)) {
          stream.addAll(queriesOfCategory);
        }
      });
      if (stream.isEmpty()) {
        throw new IllegalArgumentException("no task of category '" + category + "' in " + tasks);
      }
      Collections.shuffle(stream, new Random(42));
      queries = new QueryCycle(stream);
      RtEngineConfig config = RtEngineConfig.defaults(EngineTarget.SCHEMA)
          .withAnalyzer(analyzer)
          .withMode(DurabilityMode.GRACEFUL)
          .withSegmentSize(SEGMENT_SIZE);
      Path built = builtPool(corpusFile, config);
      trialPool = Files.createTempFile(built.getParent(), "trial-", ".pool");
      Files.copy(built, trialPool, StandardCopyOption.REPLACE_EXISTING);
      directory = NvmDirectory.open(trialPool, poolBytes);
      engine = RtEngine.open(directory, config);
      EngineDocuments.addRange(engine, corpusFile, docs, tailDocs);
    }
  }

  /** The pool holding the first {@code docs} documents, built and closed once per corpus and count. */
  private Path builtPool(Path corpusFile, RtEngineConfig config) throws IOException {
    Path dir = Path.of(poolCache);
    Files.createDirectories(dir);
    Path pool = dir.resolve(corpusFile.getFileName() + "-" + docs + "-" + poolSize + ".pool");
    if (Files.exists(pool)) {
      return pool;
    }
    Path building = dir.resolve(pool.getFileName() + ".building");
    Files.deleteIfExists(building);
    try (NvmDirectory out = NvmDirectory.open(building, poolBytes); RtEngine writer = RtEngine.open(out, config)) {
      long[] id = {0};
      CorpusIngest.ingest(corpusFile, docs, doc -> writer.add(EngineDocuments.of(id[0]++, doc)), acked -> {}, "jmh live-tail ingest");
      PipelineIdle.await(writer);
    }
    Files.move(building, pool);
    return pool;
  }

  /** Closes the engine and deletes the trial's copy of the pool. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    IOUtils.close(engine, directory);
    Files.deleteIfExists(trialPool);
  }

  /** One top-10 search of the next query of the stream. */
  @Benchmark
  public RtSearchResult search() throws IOException {
    return engine.search(
        RtSearchRequest.of(queries.next(), K).withoutStoredFields().withCache(false));
  }
}
