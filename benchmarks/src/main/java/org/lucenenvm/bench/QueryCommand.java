package org.lucenenvm.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.lucenenvm.server.ByteSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code query}: the NC queries of {@link StaticBenchmark} on an index built before (by {@code
 * compare}, or {@code run --keep-indexes}), in this JVM; writes {@code results.csv} and the top-k
 * hits of every query ({@value HitIdentities#FILE}) to the output directory. {@code compare} runs it
 * in each of its child JVMs.
 */
@Command(name = "query", mixinStandardHelpOptions = true, description = "Run the NC queries on a prebuilt index (one JVM of 'compare').")
final class QueryCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "Configuration the index was built with.")
  String config;

  @Option(names = "--index-dir", required = true, description = "Directory holding the index (or the NVM pool file).")
  Path indexDir;

  @Option(names = "--docs", required = true, description = "Documents the index must hold.")
  long docs;

  @Option(names = "--tasks", required = true, description = "luceneutil .tasks file.")
  Path tasks;

  @Option(names = "--out", required = true, description = "Output directory for results.csv and " + HitIdentities.FILE + ".")
  Path out;

  @Option(names = "--nvm-pool-size", defaultValue = "8g", description = "NVM pool size the index was built with (default ${DEFAULT-VALUE}).")
  String nvmPoolSize;

  @Mixin QueryOptions query;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(indexDir)) {
      throw new IllegalArgumentException("--index-dir " + indexDir + " is not a directory: build the index first");
    }
    Configuration configuration = Configurations.select(List.of(config), ByteSize.parse(nvmPoolSize)).get(0);
    RunSettings settings = new RunSettings(null, docs, indexDir, true, query.queryThreads, query.pinThreads,
        query.queriesPerCategory, query.warmupQueries, 0, query.topK, 1, 0, 0, 0);
    Files.createDirectories(out);
    try (Analyzer analyzer = new StandardAnalyzer();
        Directory directory = configuration.createDirectory(indexDir)) {
      Workload workload = query.workload(TaskFile.read(tasks), analyzer);
      StaticBenchmark nc = new StaticBenchmark(settings, workload, analyzer, new ThreadPinning(query.pinThreads));
      List<ResultRow> rows = nc.measure(config, directory, Double.NaN);
      ResultsCsv.write(out.resolve("results.csv"), rows);
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        HitIdentities.collect(SearcherFactories.uncached(reader), workload, query.topK).write(out.resolve(HitIdentities.FILE));
      }
    }
    return 0;
  }
}
