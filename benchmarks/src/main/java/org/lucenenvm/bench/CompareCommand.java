package org.lucenenvm.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.lucenenvm.server.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code compare}: baseline against candidate over several JVMs per side, alternated ({@link
 * JvmSchedule}), in the manner of luceneutil. NC sides: the index of each side is built once in this
 * JVM (index, commit, force-merge, into {@code <work-dir>/<side>-<config>}; an NVM pool is reopened by
 * each child), then every child JVM runs {@code query} on it. WRT sides ({@code nrt-K}, {@code
 * rt-...}): every child JVM runs {@code run --modes wrt} for that one setting, ingesting the corpus
 * itself, after {@code --warmup-runs} untimed passes of it (default 1: a fresh JVM's only row
 * would otherwise be timed while its hot methods still compile), paced at {@code --ingest-rate} if
 * given. Then per category {@link CategoryComparison}s, written by {@link CompareReport}.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Baseline against candidate: N JVMs per side, alternated; QPS mean ± sd, P50/P99, Welch t-test, hit check.")
final class CompareCommand implements Callable<Integer> {

  @Option(names = "--baseline", required = true, description = "NC configuration (lucene-dram, lucene-nvm, direct-heap, nvm-uncompressed) or WRT run (nrt-K, nrt-inf, rt-<mode>-<engrave>-<pointer>).")
  String baseline;

  @Option(names = "--candidate", required = true, description = "As --baseline; both NC or both WRT.")
  String candidate;

  @Option(names = "--jvms", defaultValue = "5", description = "JVMs per side, >= 2 (default ${DEFAULT-VALUE}).")
  int jvms;

  @Mixin CorpusOptions corpusOptions;

  @Option(names = "--out", required = true, description = "Output directory: table.txt, compare.csv, jvms.csv, compare-qps.png, jvms/.")
  Path out;

  @Option(names = "--work-dir", defaultValue = "/dev/shm/lucene-nvm-bench/compare", description = "Indexes and NVM pools go here (default ${DEFAULT-VALUE}).")
  Path workDir;

  @Option(names = "--keep-indexes", description = "Keep the indexes after the run.")
  boolean keepIndexes;

  @Option(names = "--nvm-pool-size", defaultValue = "8g", description = "NVM pool size (default ${DEFAULT-VALUE}).")
  String nvmPoolSize;

  @Mixin IndexWriterOptions indexWriter;

  @Option(names = "--warmup-share", defaultValue = "0.8", description = "WRT: share of the corpus ingested before queries are timed (default ${DEFAULT-VALUE}).")
  double warmupShare;

  /** WRT children: one untimed pass of their setting before the timed one unless told otherwise. */
  private static final int DEFAULT_WARMUP_RUNS = 1;

  @Mixin WarmupOptions warmup;

  @Option(names = "--child-jvm-opts", description = "Options of the child JVMs, space-separated, e.g. '-Xms2g -Xmx8g' (default: this JVM's own options).")
  String childJvmOpts;

  @Mixin QueryOptions query;

  @Mixin IngestRate ingestRate;

  @Override
  public Integer call() throws Exception {
    if (jvms < 2) {
      throw new IllegalArgumentException("--jvms must be >= 2 (a standard deviation needs two JVMs per side): " + jvms);
    }
    warmup.check();
    List<CompareSide> sides = List.of(CompareSide.parse(baseline), CompareSide.parse(candidate));
    if (sides.get(0).realTime() != sides.get(1).realTime()) {
      throw new IllegalArgumentException("baseline " + baseline + " and candidate " + candidate + " must both be NC configurations or both WRT runs");
    }
    boolean realTime = sides.get(0).realTime();
    if (ingestRate.docsPerSecond != null && !realTime) {
      throw new IllegalArgumentException("--ingest-rate paces WRT ingestion, but " + baseline + " and " + candidate + " are NC configurations");
    }
    long indexDocs = corpusOptions.documentsToIndex();
    long poolBytes = ByteSize.parse(nvmPoolSize);
    Files.createDirectories(out);
    Files.createDirectories(workDir);
    MachineLoad loadAtStart = MachineLoad.now();
    List<Path> indexDirs = new ArrayList<>();
    List<Double> ingestRates = new ArrayList<>();
    try {
      if (!realTime) {
        buildIndexes(sides, indexDocs, poolBytes, indexDirs, ingestRates);
      }
      List<JvmRun> runs = new ArrayList<>();
      List<Integer> order = JvmSchedule.alternate(jvms);
      for (int i = 0; i < order.size(); i++) {
        int side = order.get(i);
        runs.add(runJvm(i + 1, side, sides.get(side), indexDocs, realTime ? null : indexDirs.get(side)));
      }
      CompareReport report = new CompareReport(baseline, candidate, jvms, indexDocs, realTime ? "WRT" : "NC",
          ManagementFactory.getOperatingSystemMXBean().getAvailableProcessors(), loadAtStart, ingestRates, runs);
      report.write(out);
      System.out.print(report.table());
      System.err.println("compare: results in " + out.toAbsolutePath());
      return 0;
    } finally {
      if (!keepIndexes) {
        for (Path dir : indexDirs) {
          WorkDirectories.delete(dir);
        }
      }
    }
  }

  private void buildIndexes(List<CompareSide> sides, long indexDocs, long poolBytes, List<Path> indexDirs, List<Double> ingestRates) throws Exception {
    RunSettings settings = new RunSettings(corpusOptions.corpus, indexDocs, workDir, true, 1, false, 1, 0, 0, 1, indexWriter.ramBufferMb, indexWriter.forceMerge,
        IndexWriterConfig.DEFAULT_MAX_FULL_FLUSH_MERGE_WAIT_MILLIS, 0);
    try (Analyzer analyzer = new StandardAnalyzer()) {
      for (int side = 0; side < 2; side++) {
        Configuration configuration = Configurations.select(List.of(sides.get(side).spec()), poolBytes).get(0);
        Path dir = WorkDirectories.fresh(workDir, (side == JvmSchedule.BASELINE ? "baseline-" : "candidate-") + configuration.name());
        indexDirs.add(dir);
        try (Directory directory = configuration.createDirectory(dir)) {
          ingestRates.add(StaticBenchmark.buildIndex(settings, analyzer, configuration, directory));
        }
      }
    }
  }

  private JvmRun runJvm(int number, int side, CompareSide spec, long indexDocs, Path indexDir) throws Exception {
    String sideName = side == JvmSchedule.BASELINE ? "baseline" : "candidate";
    Path dir = out.resolve("jvms").resolve(String.format(Locale.ROOT, "%02d-%s", number, sideName));
    WorkDirectories.delete(dir);
    List<String> args = new ArrayList<>();
    if (indexDir != null) {
      args.addAll(List.of("query", "--config", spec.spec(), "--index-dir", indexDir.toString()));
    } else {
      args.addAll(List.of("run", "--corpus", corpusOptions.corpus.toString(), "--warmup-share", Double.toString(warmupShare),
          "--work-dir", workDir.resolve("jvm-" + number).toString(), "--ram-buffer-mb", Double.toString(indexWriter.ramBufferMb)));
      args.addAll(warmup.toArgs(DEFAULT_WARMUP_RUNS));
      args.addAll(ingestRate.toArgs());
      args.addAll(spec.runArgs());
    }
    args.addAll(List.of("--docs", Long.toString(indexDocs), "--tasks", corpusOptions.tasks.toString(), "--out", dir.toString(), "--nvm-pool-size", nvmPoolSize));
    args.addAll(query.toArgs());
    List<String> options = ChildJvm.options(childJvmOpts);
    System.err.printf("compare: JVM %d/%d, %s %s%n", number, 2 * jvms, sideName, spec.spec());
    MachineLoad start = MachineLoad.now();
    long startNanos = System.nanoTime();
    ChildJvm.run(ChildJvm.command(options, args), dir);
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    MachineLoad end = MachineLoad.now();
    List<ResultRow> rows = ResultsCsv.read(dir.resolve("results.csv"));
    HitIdentities hits = indexDir == null ? null : HitIdentities.read(dir.resolve(HitIdentities.FILE));
    return new JvmRun(number, side, spec.spec(), dir, start, end, seconds, rows, hits);
  }
}
