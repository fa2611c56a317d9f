package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.codec.NvmCodec;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Postings and query latency of the static configurations of {@link Configurations} plus {@code
 * nvm-uncompressed-mmap} (the NVM codec on {@link MMapDirectory}, which separates the codec from
 * the store) over one deterministic Zipfian index, force-merged to one segment, query cache off.
 *
 * <p>Each query class runs several queries per operation: BM25 top-10 term queries of high, medium
 * and low document frequency; conjunctions of two high-frequency terms (both in most documents),
 * of a high- with a medium- and of a high- with a low-frequency term; disjunctions; phrases. Raw
 * postings access is measured on the high-frequency terms as {@code nextDoc} + {@code freq}, {@code
 * nextPostings} and strided {@code advance}; the {@code postings} secondary result of those is the
 * time per posting (JMH {@link AuxCounters}), the primary one the time per operation.
 *
 * <p>{@link #main} runs the configurations interleaved: one fork of every configuration per round,
 * round after round, so that a change in machine load hits them all alike; plain JMH runs ({@code
 * scripts/bench.sh jmh PostingsBenchmark}) run them one after the other. Setup prints the index
 * bytes and the Java heap the open reader retains. Indexes are cached under {@code
 * /dev/shm/lucene-nvm-postings-*} (or {@code -Dbench.tmpfs}) across trials and forks; {@link
 * #main} builds them before its first fork.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 3,
    jvmArgsAppend = {
      "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"
    })
public class PostingsBenchmark {
  private static final String FIELD = "body";

  /** Configuration names in table order; the first is the baseline of {@link #main}'s ratios. */
  static final String[] CONFIGS = {
    "lucene-dram", "lucene-nvm", "direct-heap", "nvm-uncompressed", "nvm-uncompressed-mmap"
  };

  @Param({
    "lucene-dram", "lucene-nvm", "direct-heap", "nvm-uncompressed", "nvm-uncompressed-mmap"
  })
  public String config;

  private static final String DEFAULT_DOCS = "200000";
  private static final String DEFAULT_VOCABULARY = "50000";

  @Param({DEFAULT_DOCS})
  public int numDocs;

  @Param({DEFAULT_VOCABULARY})
  public int vocabulary;

  private static final String[] HIGH = {"w0", "w1", "w2"};
  private static final String[] MEDIUM = {"w100", "w200", "w300"};
  private static final String[] LOW = {"w5000", "w10000", "w20000"};

  private Path work;
  private Directory directory;
  private DirectoryReader reader;
  private LeafReader leaf;
  private IndexSearcher searcher;
  private final Query[] highTerms = terms(HIGH);
  private final Query[] mediumTerms = terms(MEDIUM);
  private final Query[] lowTerms = terms(LOW);
  private final Query[] andHighHigh = {both(Occur.MUST, "w0", "w1"), both(Occur.MUST, "w1", "w3")};
  private final Query[] andHighMedium = {
    both(Occur.MUST, "w0", "w100"), both(Occur.MUST, "w2", "w300")
  };
  private final Query[] andHighLow = {
    both(Occur.MUST, "w0", "w5000"), both(Occur.MUST, "w1", "w10000")
  };
  private final Query[] orQueries = {
    both(Occur.SHOULD, "w2", "w30"), both(Occur.SHOULD, "w0", "w100"), both(Occur.SHOULD, "w50", "w500")
  };
  private final Query[] phrases = {
    new PhraseQuery(FIELD, "w0", "w1"), new PhraseQuery(FIELD, "w1", "w2")
  };

  /** Postings visited per operation, reported by JMH as time per posting. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Postings {
    /** Postings visited. */
    public long postings;

    /** Resets the count at each iteration. */
    @Setup(Level.Iteration)
    public void clear() {
      postings = 0;
    }
  }

  /** The configuration of this trial: {@link Configurations} or the codec on MMapDirectory. */
  private static Configuration configuration(String name) {
    if (name.equals("nvm-uncompressed-mmap")) {
      return new StaticConfiguration(
          name, "NvmCodec on MMapDirectory over tmpfs", NvmCodec::new, MMapDirectory::new);
    }
    Configuration configuration = Configurations.all(1L << 30).get(name);
    if (configuration == null) {
      throw new IllegalArgumentException("unknown config " + name);
    }
    return configuration;
  }

  /**
   * Opens the index of this trial, building it first if no earlier JVM did (see {@link
   * #openOrBuild}).
   */
  @Setup(Level.Trial)
  public void openIndex() throws IOException {
    work = indexPath(config, numDocs, vocabulary);
    directory = openOrBuild(config, numDocs, vocabulary);
    long heapBefore = Measurements.usedHeapAfterGc();
    reader = DirectoryReader.open(directory);
    long readerHeap = Measurements.usedHeapAfterGc() - heapBefore;
    leaf = reader.leaves().get(0).reader();
    searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    System.out.printf(
        "%n# config=%s index=%s index bytes=%d, Java heap retained by the open reader=%d bytes%n",
        config, work, Measurements.indexBytes(directory), readerHeap);
  }

  /**
   * Where the index of a configuration and size is cached: {@code /dev/shm} (or {@code
   * -Dbench.tmpfs}), named after the parameters, reused by later trials and forks.
   */
  private static Path indexPath(String config, int numDocs, int vocabulary) {
    return Path.of(System.getProperty("bench.tmpfs", "/dev/shm"))
        .resolve("lucene-nvm-postings-" + config + "-" + numDocs + "-" + vocabulary);
  }

  /** Opens the directory of a configuration's index, building the index if it is not there. */
  private static Directory openOrBuild(String config, int numDocs, int vocabulary)
      throws IOException {
    Configuration configuration = configuration(config);
    Path path = indexPath(config, numDocs, vocabulary);
    Files.createDirectories(path);
    Directory directory = configuration.createDirectory(path);
    if (!DirectoryReader.indexExists(directory)) {
      buildIndex(directory, configuration.codec(), numDocs, vocabulary);
    }
    return directory;
  }

  private static void buildIndex(Directory directory, Codec codec, int numDocs, int vocabulary)
      throws IOException {
    IndexWriterConfig writerConfig =
        new IndexWriterConfig(new StandardAnalyzer()).setCodec(codec).setRAMBufferSizeMB(256);
    ZipfSampler words = new ZipfSampler(vocabulary, 1.0);
    SplittableRandom random = new SplittableRandom(42);
    try (IndexWriter writer = new IndexWriter(directory, writerConfig)) {
      for (int i = 0; i < numDocs; i++) {
        StringBuilder text = new StringBuilder();
        for (int w = 0, length = 10 + (i % 90); w < length; w++) {
          text.append('w').append(words.sample(random)).append(' ');
        }
        Document doc = new Document();
        doc.add(new TextField(FIELD, text.toString(), Field.Store.NO));
        writer.addDocument(doc);
      }
      writer.forceMerge(1);
    }
  }

  private static Query term(String word) {
    return new TermQuery(new Term(FIELD, word));
  }

  private static Query[] terms(String[] words) {
    Query[] queries = new Query[words.length];
    for (int i = 0; i < words.length; i++) {
      queries[i] = term(words[i]);
    }
    return queries;
  }

  private static Query both(Occur occur, String a, String b) {
    return new BooleanQuery.Builder().add(term(a), occur).add(term(b), occur).build();
  }

  /** Closes the index and leaves it in place for the next trial; remove the directory when done. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    IOUtils.close(reader, directory);
  }

  /** Runs every query of a class; returns the total hit count so nothing is optimized away. */
  private long top10(Query[] queries) throws IOException {
    long hits = 0;
    for (Query query : queries) {
      TopDocs top = searcher.search(query, 10);
      hits += top.totalHits.value() + top.scoreDocs.length;
    }
    return hits;
  }

  @Benchmark
  public long termHighTop10() throws IOException {
    return top10(highTerms);
  }

  @Benchmark
  public long termMediumTop10() throws IOException {
    return top10(mediumTerms);
  }

  @Benchmark
  public long termLowTop10() throws IOException {
    return top10(lowTerms);
  }

  /** Two terms that each occur in most documents: exempt from the 1.3x target. */
  @Benchmark
  public long andHighHighTop10() throws IOException {
    return top10(andHighHigh);
  }

  @Benchmark
  public long andHighMediumTop10() throws IOException {
    return top10(andHighMedium);
  }

  @Benchmark
  public long andHighLowTop10() throws IOException {
    return top10(andHighLow);
  }

  @Benchmark
  public long orTop10() throws IOException {
    return top10(orQueries);
  }

  @Benchmark
  public long phraseTop10() throws IOException {
    return top10(phrases);
  }

  /** Visits every posting of the high-frequency terms with nextDoc + freq. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long iterateHighPostings(Postings count) throws IOException {
    long sum = 0;
    for (String word : HIGH) {
      PostingsEnum postings = leaf.postings(new Term(FIELD, word), PostingsEnum.FREQS);
      for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
        sum += doc + postings.freq();
        count.postings++;
      }
    }
    return sum;
  }

  /** Visits every posting of the high-frequency terms in nextPostings batches (as scorers do). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public double nextPostingsHigh(Postings count) throws IOException {
    DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
    double sum = 0;
    for (String word : HIGH) {
      PostingsEnum postings = leaf.postings(new Term(FIELD, word), PostingsEnum.FREQS);
      postings.nextDoc();
      while (postings.docID() != DocIdSetIterator.NO_MORE_DOCS) {
        postings.nextPostings(DocIdSetIterator.NO_MORE_DOCS, buffer);
        for (int i = 0; i < buffer.size; i++) {
          sum += buffer.docs[i] + buffer.features[i];
        }
        count.postings += buffer.size;
      }
    }
    return sum;
  }

  /**
   * Advances through the high-frequency terms in strides of 97 doc IDs (skip data vs. galloping);
   * a posting here is one advance call.
   */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long advanceHighPostings(Postings count) throws IOException {
    long sum = 0;
    for (String word : HIGH) {
      PostingsEnum postings = leaf.postings(new Term(FIELD, word), PostingsEnum.NONE);
      for (int doc = postings.advance(0); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.advance(doc + 97)) {
        sum += doc;
        count.postings++;
      }
    }
    return sum;
  }

  /**
   * Runs the benchmark with the configurations interleaved: {@code rounds} rounds (default 3,
   * {@code -Dbench.rounds}), each one fork per configuration in {@link #CONFIGS} order, and prints
   * per benchmark and configuration the median and the fastest of all measurement iterations over
   * the rounds, the mean of the forks' scores with their [min, max], and {@code lucene-dram}'s
   * median and fastest divided by the configuration's (above 1 means faster than Lucene104 in
   * DRAM). Where the host's load slows stretches of iterations (1.6× within one fork has been seen
   * on a shared VM), the fastest iterations are the comparison that repeats from run to run.
   *
   * <p>Missing indexes are built here, before the first fork, so that every measuring fork starts
   * alike: one that indexed and merged first would have compiled its query code after seeing other
   * classes at the same call sites. Forks inherit this JVM's options, {@code -Dbench.tmpfs}
   * included. Arguments are JMH's (benchmark regex, {@code -wi}, {@code -prof perfnorm}, {@code -p
   * config=...}, ...); {@code -f} is ignored, and a result file {@code -rff name.json} becomes one
   * file per fork, {@code name-<config>-round<n>.json}.
   */
  public static void main(String[] args) throws Exception {
    CommandLineOptions cli = new CommandLineOptions(args);
    int rounds = Integer.getInteger("bench.rounds", 3);
    List<String> configs = parameter(cli, "config", List.of(CONFIGS));
    for (String config : configs) {
      for (String numDocs : parameter(cli, "numDocs", List.of(DEFAULT_DOCS))) {
        for (String vocabulary : parameter(cli, "vocabulary", List.of(DEFAULT_VOCABULARY))) {
          openOrBuild(config, Integer.parseInt(numDocs), Integer.parseInt(vocabulary)).close();
        }
      }
    }
    List<String> includes = cli.getIncludes().isEmpty() ? List.of(PostingsBenchmark.class.getSimpleName()) : cli.getIncludes();
    Map<String, Map<String, Scores>> scores = new TreeMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (String config : configs) {
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli).forks(1).param("config", config);
        for (String include : includes) {
          options.include(include);
        }
        if (cli.getResult().hasValue()) {
          String file = cli.getResult().get();
          int dot = file.lastIndexOf('.');
          String suffix = "-" + config + "-round" + round;
          options.result(dot < 0 ? file + suffix : file.substring(0, dot) + suffix + file.substring(dot));
        }
        System.out.printf("%n### round %d/%d, config=%s%n", round, rounds, config);
        for (RunResult run : new Runner(options.build()).run()) {
          String benchmark = run.getParams().getBenchmark().replaceFirst(".*\\.", "");
          scores(scores, benchmark, config).add(run.getPrimaryResult().getScore(), run, null);
          for (String secondary : run.getSecondaryResults().keySet()) {
            scores(scores, benchmark + ":" + secondary, config)
                .add(run.getSecondaryResults().get(secondary).getScore(), run, secondary);
          }
        }
      }
    }
    printSummary(scores, configs);
  }

  /** A JMH parameter's values from the command line, or {@code defaults}. */
  private static List<String> parameter(CommandLineOptions cli, String name, List<String> defaults) {
    return cli.getParameter(name).hasValue() ? new ArrayList<>(cli.getParameter(name).get()) : defaults;
  }

  private static Scores scores(
      Map<String, Map<String, Scores>> scores, String benchmark, String config) {
    return scores.computeIfAbsent(benchmark, b -> new LinkedHashMap<>())
        .computeIfAbsent(config, c -> new Scores());
  }

  /** One benchmark's results for one configuration: each fork's score and every iteration's. */
  private static final class Scores {
    final List<Double> forks = new ArrayList<>();
    final List<Double> iterations = new ArrayList<>();

    /**
     * Adds a fork's score and its iterations' (the primary result's, or {@code secondary}'s where
     * an iteration has it: a profiler such as async-profiler reports once per fork, not per
     * iteration).
     */
    void add(double forkScore, RunResult run, String secondary) {
      forks.add(forkScore);
      for (BenchmarkResult result : run.getBenchmarkResults()) {
        for (IterationResult iteration : result.getIterationResults()) {
          Result<?> score =
              secondary == null
                  ? iteration.getPrimaryResult()
                  : iteration.getSecondaryResults().get(secondary);
          if (score != null) {
            iterations.add(score.getScore());
          }
        }
      }
    }

    double median() {
      double[] sorted = sorted();
      if (sorted.length == 0) {
        return Double.NaN;
      }
      int middle = sorted.length / 2;
      return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The fastest iteration: on a host whose load adds time in stretches, the least disturbed. */
    double fastest() {
      double[] sorted = sorted();
      return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    private double[] sorted() {
      return iterations.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }
  }

  private static void printSummary(Map<String, Map<String, Scores>> scores, List<String> configs) {
    System.out.printf(
        "%n# Interleaved summary: median and fastest of all iterations, mean of the forks [min, max];"
            + " ratios = lucene-dram's median / config's median, lucene-dram's fastest / config's"
            + " fastest%n");
    System.out.printf(
        "%-36s %-22s %12s %12s %12s %12s %12s %8s %8s%n",
        "benchmark", "config", "median", "fastest", "fork mean", "fork min", "fork max",
        "ratio", "fastest");
    for (var benchmark : scores.entrySet()) {
      Scores baseline = benchmark.getValue().get(CONFIGS[0]);
      double baseMedian = baseline == null ? Double.NaN : baseline.median();
      double baseFastest = baseline == null ? Double.NaN : baseline.fastest();
      for (String config : configs) {
        Scores values = benchmark.getValue().get(config);
        if (values == null) {
          continue;
        }
        System.out.printf(
            "%-36s %-22s %12.4f %12.4f %12.4f %12.4f %12.4f %8.2f %8.2f%n",
            benchmark.getKey(), config, values.median(), values.fastest(),
            values.forks.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
            values.forks.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
            values.forks.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
            baseMedian / values.median(),
            baseFastest / values.fastest());
      }
    }
  }
}
