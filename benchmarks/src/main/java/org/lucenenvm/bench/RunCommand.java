package org.lucenenvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.search.Query;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.server.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code run}: the NC runs of the chosen static configurations and the WRT runs of the chosen NRT
 * refresh intervals and real-time engine settings (their extra facts in {@value EngineFacts#FILE}), then table ({@code table.txt} and stdout), CSV ({@code results.csv}) and PNG
 * charts in the output directory. Each WRT run may follow {@code --warmup-runs} untimed passes of
 * the same configuration ({@link RealTimeBenchmark#warmUp}); with {@code --forks N} every row runs
 * in a JVM of its own instead, N rounds ({@link ForkedRun}), the per-round results in {@code run<r>/}.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run NC (static) and WRT (near-real-time) benchmarks.")
final class RunCommand implements Callable<Integer> {

  @Mixin CorpusOptions corpusOptions;

  @Option(names = "--out", required = true, description = "Output directory for results.csv, table.txt and PNG charts.")
  Path out;

  @Option(names = "--modes", split = ",", defaultValue = "nc,wrt", description = "nc, wrt or both (default ${DEFAULT-VALUE}).")
  List<String> modes;

  @Option(names = "--configs", split = ",", defaultValue = "lucene-dram,lucene-nvm,direct-heap,nvm-uncompressed",
      description = "NC configurations (default ${DEFAULT-VALUE}).")
  List<String> configs;

  @Option(names = "--nrt", split = ",", defaultValue = "1,10,100,1000,inf", description = "WRT refresh intervals in queries, 'inf' = never, 'none' = no NRT run (default ${DEFAULT-VALUE}).")
  List<String> nrt;

  @Option(names = "--rt", split = ",", defaultValue = "volatile-eager-lazy,graceful-eager-lazy",
      description = "WRT runs of the real-time engine, <volatile|graceful>-<eager|lazy>-<eager|lazy> (engrave, pointer update), 'none' = no run (default ${DEFAULT-VALUE}).")
  List<String> rt;

  @Option(names = "--rt-codec", split = ",", defaultValue = EngineSettings.DEFAULT_CODEC,
      description = "Codecs of the engine's segments, one engine row per codec, e.g. Lucene104,NvmCodec (default ${DEFAULT-VALUE}).")
  List<String> rtCodec;

  @Option(names = "--rt-segment-size", defaultValue = "" + RtEngineConfig.DEFAULT_SEGMENT_SIZE, description = "Documents per live segment of the engine (default ${DEFAULT-VALUE}).")
  int rtSegmentSize;

  @Option(names = "--rt-partitions", defaultValue = "1",
      description = "Document partitions of the engine (SPIRIT's executors; >1 searches them in parallel, default ${DEFAULT-VALUE}).")
  int rtPartitions;

  @Option(names = "--rt-dram-budget", defaultValue = "256m", description = "DRAM budget of the engine's read-optimized segments (default ${DEFAULT-VALUE}).")
  String rtDramBudget;

  @Option(names = "--rt-cache", split = ",", defaultValue = "off",
      description = "Result caches of the engine runs, each run once per value: off or <dram|nvm>-<lru|dlirs|gdsf>-<size>[-<min compute>],"
          + " e.g. off,dram-lru-64m,nvm-dlirs-64m (default ${DEFAULT-VALUE}).")
  List<String> rtCache;

  @Option(names = "--rt-statistics-lag", defaultValue = "0",
      description = "New segments per partition the engine's statistics epoch may leave out before it advances (with a cache, entries"
          + " survive that many flushes; the row name gets -lag<N>; default ${DEFAULT-VALUE}: every flush advances it).")
  int rtStatisticsLag;

  @Option(names = "--wrt-config", defaultValue = "lucene-dram", description = "Configuration the WRT runs index into (default ${DEFAULT-VALUE}).")
  String wrtConfig;

  @Mixin QueryOptions query;

  @Option(names = "--warmup-share", defaultValue = "0.8", description = "WRT: share of the corpus ingested before queries are timed; 1 = a static run: queries are timed"
          + " only after the whole corpus was acknowledged, --queries-per-category of each over all threads (default ${DEFAULT-VALUE}).")
  double warmupShare;

  @Mixin IndexWriterOptions indexWriter;

  @Option(names = "--full-flush-merge-wait-ms", defaultValue = "500",
      description = "How long a refresh/commit waits to merge small new segments; Lucene's default 500, 0 = never (default ${DEFAULT-VALUE}).")
  long fullFlushMergeWaitMs;

  @Option(names = "--work-dir", defaultValue = "/dev/shm/lucene-nvm-bench", description = "Indexes and NVM pools go here (tmpfs: DRAM; default ${DEFAULT-VALUE}).")
  Path workDir;

  @Option(names = "--keep-indexes", description = "Keep indexes after the run.")
  boolean keepIndexes;

  @Option(names = "--nvm-pool-size", defaultValue = "8g", description = "NVM pool size, e.g. 512m, 8g (default ${DEFAULT-VALUE}).")
  String nvmPoolSize;

  @Option(names = "--subtitle", description = "Text added to chart titles (default: corpus size and machine).")
  String subtitle;

  @Option(names = "--rt-background-nice", split = ",", defaultValue = "" + RtEngineConfig.DEFAULT_BACKGROUND_NICE,
      description = "Nice values (0-19, Linux) of the engine's indexer and merger threads, each run once per value (the row name gets"
          + " -nice<N> when not the default; default ${DEFAULT-VALUE}).")
  List<Integer> rtBackgroundNice;

  @Option(names = "--rt-max-segments",
      description = "Segments per partition the engine's merger keeps the table within (fewer leaves per query; the row name gets -maxseg<M>;"
          + " default: the engine's own).")
  Integer rtMaxSegments;

  @Option(names = "--rt-queue-capacity",
      description = "Full live segments that may wait for their flush before the engine's writers wait (the row name gets -queue<Q>;"
          + " default: the engine's own).")
  Integer rtQueueCapacity;

  @Mixin WarmupOptions warmup;

  @Mixin IngestRate ingestRate;

  @Option(names = "--forks", defaultValue = "0",
      description = "N >= 1: every configuration row in a JVM of its own, N rounds, the order rotated by one per round, round r in <out>/run<r>/;"
          + " 0 = all rows in this JVM, one after the other (default ${DEFAULT-VALUE}).")
  int forks;

  @Option(names = "--child-jvm-opts", description = "With --forks: options of the child JVMs, space-separated, e.g. '-Xms2g -Xmx8g' (default: this JVM's own options).")
  String childJvmOpts;

  @Spec CommandSpec spec;

  /** Options a forked child never inherits: it gets its own output and work directory and the selection of its one row. */
  private static final Set<String> NOT_INHERITED =
      Set.of("--out", "--work-dir", "--forks", "--child-jvm-opts", "--modes", "--configs", "--nrt", "--rt", "--rt-codec", "--rt-cache",
          "--rt-background-nice");

  @Override
  public Integer call() throws Exception {
    checkOptions();
    long indexDocs = corpusOptions.documentsToIndex();
    RunSettings settings = new RunSettings(corpusOptions.corpus, indexDocs, workDir, keepIndexes, query.queryThreads, query.pinThreads, query.queriesPerCategory, query.warmupQueries, warmupShare, query.topK, indexWriter.ramBufferMb, indexWriter.forceMerge, fullFlushMergeWaitMs, ingestRate.orUnpaced());
    long poolBytes = ByteSize.parse(nvmPoolSize);
    List<Configuration> staticConfigs = Configurations.select(modes.contains("nc") ? configs : List.of(), poolBytes);
    Configuration wrtBase = Configurations.select(List.of(wrtConfig), poolBytes).get(0);
    List<String> policySpecs = !modes.contains("wrt") || nrt.equals(List.of("none")) ? List.of() : nrt;
    List<RefreshPolicy> policies = policySpecs.stream().map(RefreshPolicy::parse).toList();
    List<EngineRow> engines = new ArrayList<>();
    for (String engine : !modes.contains("wrt") || rt.equals(List.of("none")) ? List.<String>of() : rt) {
      for (String codec : rtCodec) {
        EngineSettings parsed = EngineSettings.parse(engine, codec, rtSegmentSize, ByteSize.parse(rtDramBudget), poolBytes, rtPartitions);
        for (String cache : rtCache) {
          for (int nice : rtBackgroundNice) {
            engines.add(new EngineRow(engine, codec, cache, nice, parsed.withCache(RtCache.parse(cache)).withTuning(tuning(nice))));
          }
        }
      }
    }
    Files.createDirectories(out);
    Files.createDirectories(workDir);
    if (forks > 0) {
      runForked(staticConfigs, policySpecs, engines, indexDocs);
      return 0;
    }
    Files.deleteIfExists(out.resolve(EngineFacts.FILE));
    Files.deleteIfExists(out.resolve(CategoryCacheOutcomes.FILE));
    List<ResultRow> rows = new ArrayList<>();
    try (Analyzer analyzer = new StandardAnalyzer()) {
      Workload workload = query.workload(TaskFile.read(corpusOptions.tasks), analyzer);
      ThreadPinning pinning = new ThreadPinning(query.pinThreads);
      System.err.printf("run: %,d docs, categories %s, %d query thread(s), JVM %s, max heap %d MiB%n",
          indexDocs, workload.categories(), query.queryThreads, Runtime.version(), Runtime.getRuntime().maxMemory() >> 20);
      StaticBenchmark nc = new StaticBenchmark(settings, workload, analyzer, pinning);
      for (Configuration c : staticConfigs) {
        rows.addAll(nc.run(c));
        ResultsCsv.write(out.resolve("results.csv"), rows);
      }
      RealTimeBenchmark wrt = new RealTimeBenchmark(settings, workload, pinning);
      for (RefreshPolicy policy : policies) {
        rows.addAll(warmedRun(wrt, wrt.nrtName(policy), facts -> NrtTarget.factory(wrtBase, settings, analyzer, policy)));
        ResultsCsv.write(out.resolve("results.csv"), rows);
      }
      List<Query> restartQueries = wrt.firstQueries(EngineTarget.RESTART_QUERIES);
      for (EngineRow row : engines) {
        EngineSettings engine = row.settings();
        rows.addAll(warmedRun(wrt, engine.label(),
            facts -> EngineTarget.factory(engine, workload, analyzer, restartQueries, facts, settings.staticWindow())));
        ResultsCsv.write(out.resolve("results.csv"), rows);
      }
    }
    writeResults(rows, out, indexDocs);
    System.err.println("run: results in " + out.toAbsolutePath());
    return 0;
  }

  /** The engine's pipeline knobs of this run, with its background threads at nice {@code nice}. */
  private EngineSettings.Tuning tuning(int nice) {
    EngineSettings.Tuning t = EngineSettings.Tuning.DEFAULTS.withStatisticsLag(rtStatisticsLag).withBackgroundNice(nice);
    t = rtMaxSegments == null ? t : t.withMaxSegments(rtMaxSegments);
    return rtQueueCapacity == null ? t : t.withQueueCapacity(rtQueueCapacity);
  }

  /** Passes {@code value} to the engine's own check, naming {@code option} in the error it raises. */
  private static void checkEngineOption(String option, int value, IntConsumer engineCheck) {
    try {
      engineCheck.accept(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " " + value + ": " + e.getMessage(), e);
    }
  }

  private void checkOptions() {
    for (String mode : modes) {
      if (!mode.equals("nc") && !mode.equals("wrt")) {
        throw new IllegalArgumentException("unknown mode '" + mode + "': use nc, wrt or nc,wrt");
      }
    }
    if (ingestRate.docsPerSecond != null && !modes.contains("wrt")) {
      throw new IllegalArgumentException("--ingest-rate paces WRT ingestion, but --modes " + String.join(",", modes) + " runs no WRT row");
    }
    if (forks < 0) {
      throw new IllegalArgumentException("--forks must be >= 0 (0 = all rows in this JVM): " + forks);
    }
    warmup.check();
    RtEngineConfig defaults = RtEngineConfig.defaults(EngineTarget.SCHEMA);
    checkEngineOption("--rt-statistics-lag", rtStatisticsLag, defaults::withStatisticsLagSegments);
    if (rtMaxSegments != null) {
      checkEngineOption("--rt-max-segments", rtMaxSegments, defaults::withMaxSegments);
    }
    if (rtQueueCapacity != null) {
      checkEngineOption("--rt-queue-capacity", rtQueueCapacity, defaults::withQueueCapacity);
    }
    for (int nice : rtBackgroundNice) {
      checkEngineOption("--rt-background-nice", nice, RtEngineConfig::requireBackgroundNice);
    }
  }

  /**
   * The WRT run of one configuration after {@code --warmup-runs} untimed passes of it; {@code
   * factory} makes its target with a consumer of engine facts (the warm-up's are dropped).
   */
  private List<ResultRow> warmedRun(RealTimeBenchmark wrt, String name, Function<Consumer<EngineFacts>, RealTimeTarget.Factory> factory)
      throws IOException {
    int passes = warmup.runs(0);
    if (passes > 0) {
      wrt.warmUp(name, factory.apply(facts -> {}), passes, warmup.docsPerPass());
    }
    return wrt.run(name, factory.apply(this::appendFacts));
  }

  /** {@code --forks}: every row in a JVM of its own, {@code forks} rounds ({@link ForkedRun}). */
  private void runForked(List<Configuration> staticConfigs, List<String> policySpecs, List<EngineRow> engines, long indexDocs)
      throws IOException {
    List<ForkedRun.Row> rows = new ArrayList<>();
    for (Configuration c : staticConfigs) {
      rows.add(new ForkedRun.Row("NC-" + c.name(), List.of("--modes", "nc", "--configs", c.name())));
    }
    for (String policy : policySpecs) {
      rows.add(new ForkedRun.Row(RefreshPolicy.parse(policy).label(), List.of("--modes", "wrt", "--nrt", policy, "--rt", "none")));
    }
    for (EngineRow engine : engines) {
      rows.add(new ForkedRun.Row(engine.settings().label(),
          List.of("--modes", "wrt", "--nrt", "none", "--rt", engine.spec(), "--rt-codec", engine.codec(), "--rt-cache", engine.cache(),
              "--rt-background-nice", Integer.toString(engine.nice()))));
    }
    ForkedRun forked = new ForkedRun(rows, inheritedArgs(), ChildJvm.options(childJvmOpts), out, workDir, keepIndexes);
    forked.start();
    for (int round = 1; round <= forks; round++) {
      List<ResultRow> merged = forked.runRound(round);
      writeResults(merged, forked.roundDir(round), indexDocs);
      System.err.println("run: round " + round + " of " + forks + " in " + forked.roundDir(round).toAbsolutePath());
    }
  }

  /** The options given to this command, as arguments, except those a forked child must not inherit. */
  private List<String> inheritedArgs() {
    List<String> args = new ArrayList<>();
    for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
      if (NOT_INHERITED.contains(option.longestName())) {
        continue;
      }
      if (option.arity().max() == 0) {
        args.add(option.longestName());
      } else {
        for (String value : option.originalStringValues()) {
          args.add(option.longestName());
          args.add(value);
        }
      }
    }
    return args;
  }

  /** {@code results.csv}, {@code table.txt} (also on stdout) and the charts of {@code rows} in {@code dir}. */
  private void writeResults(List<ResultRow> rows, Path dir, long indexDocs) throws IOException {
    ResultsCsv.write(dir.resolve("results.csv"), rows);
    String table = ResultTable.format(rows);
    Files.writeString(dir.resolve("table.txt"), table);
    System.out.print(table);
    if (rows.stream().anyMatch(r -> r.measured() && r.queries() > 0)) {
      String title = subtitle != null ? subtitle : String.format(Locale.ROOT, "%,d docs, %d CPUs, %s", indexDocs,
          ManagementFactory.getOperatingSystemMXBean().getAvailableProcessors(), "tmpfs (no NVM)");
      ResultPlots.draw(rows, dir, title);
    }
  }

  /**
   * One engine row: its {@code --rt}, {@code --rt-codec}, {@code --rt-cache} and {@code --rt-background-nice} values and the settings they make.
   *
   * @param spec the {@code --rt} value
   * @param codec one of the {@code --rt-codec} values
   * @param cache the {@code --rt-cache} value
   * @param nice one of the {@code --rt-background-nice} values
   * @param settings the engine's settings
   */
  private record EngineRow(String spec, String codec, String cache, int nice, EngineSettings settings) {}

  private void appendFacts(EngineFacts facts) {
    try {
      facts.appendTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + out.resolve(EngineFacts.FILE), e);
    }
  }

}
