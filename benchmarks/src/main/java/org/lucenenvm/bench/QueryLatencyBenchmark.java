package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
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
 * JMH micro-benchmark: average time of one top-10 query of a task category on a force-merged index
 * of a small generated corpus, per static configuration. Run through the jar, e.g. {@code java -jar
 * benchmarks.jar jmh QueryLatencyBenchmark -f 1 -p configuration=lucene-dram,direct-heap}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QueryLatencyBenchmark {

  /** Static configuration name (see {@link Configurations}). */
  @Param({"lucene-dram", "direct-heap"})
  public String configuration;

  /** Task category of the generated tasks. */
  @Param({"TermHigh", "TermLow", "AndHighHigh", "OrHighHigh"})
  public String category;

  /** Documents of the generated corpus. */
  @Param({"50000"})
  public int docs;

  private Path temp;
  private Directory directory;
  private DirectoryReader reader;
  private IndexSearcher searcher;
  private QueryCycle queries;

  /** Generates the corpus and builds and opens the index. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Configuration config = Configurations.select(List.of(configuration), 1L << 30).get(0);
    temp = Files.createTempDirectory("jmh-lucene-nvm");
    Path corpus = temp.resolve("corpus.txt");
    List<Task> tasks = new CorpusGenerator(new GeneratorSettings(docs, 42, 200_000, 1.0, 1024, 200)).generate(corpus, temp.resolve("corpus.tasks"));
    try (Analyzer analyzer = new StandardAnalyzer()) {
      queries = new QueryCycle(Workload.parse(tasks, List.of(category), DocumentFactory.BODY, analyzer, 1).queries(category));
      directory = config.createDirectory(Files.createDirectories(temp.resolve("index")));
      IndexWriterConfig iwc = new IndexWriterConfig(analyzer).setCodec(config.codec());
      try (IndexWriter writer = new IndexWriter(directory, iwc)) {
        CorpusIngest.ingest(corpus, docs, CorpusIngest.into(writer), acked -> {}, "jmh index");
        writer.forceMerge(1);
      }
    }
    reader = DirectoryReader.open(directory);
    searcher = SearcherFactories.uncached(reader);
  }

  /** Closes and deletes the index and corpus. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    directory.close();
    WorkDirectories.delete(temp);
  }

  /** One query, cycling through the category's tasks. */
  @Benchmark
  public TopDocs query() throws IOException {
    return searcher.search(queries.next(), 10);
  }
}
