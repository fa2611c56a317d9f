package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;
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

/**
 * Postings and query latency of the four static configurations of {@link Configurations}
 * (compressed in DRAM, compressed on NVM, uncompressed on heap, uncompressed on NVM) over one
 * deterministic Zipfian index, force-merged to one segment, query cache off: BM25 top-10 term
 * queries of high, medium and low document frequency, a conjunction, a disjunction and a phrase,
 * plus raw postings iteration ({@code nextDoc} + {@code freq}) and strided {@code advance} over the
 * most frequent term. Setup prints the index bytes and the Java heap the open reader retains.
 * Indexes are cached under {@code /dev/shm/lucene-nvm-postings-*} across trials and forks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"
    })
public class PostingsBenchmark {
  private static final String FIELD = "body";

  @Param({"lucene-dram", "lucene-nvm", "direct-heap", "nvm-uncompressed"})
  public String config;

  @Param({"200000"})
  public int numDocs;

  @Param({"50000"})
  public int vocabulary;

  private Path work;
  private Directory directory;
  private DirectoryReader reader;
  private LeafReader leaf;
  private IndexSearcher searcher;
  private final Query highTerm = term("w0");
  private final Query mediumTerm = term("w100");
  private final Query lowTerm = term("w5000");
  private final Query conjunction = both(Occur.MUST, "w1", "w3");
  private final Query disjunction = both(Occur.SHOULD, "w2", "w30");
  private final Query phrase = new PhraseQuery(FIELD, "w0", "w1");

  /**
   * Builds the index once per configuration and size into {@code /dev/shm} (or {@code
   * -Dbench.tmpfs}), named after the parameters, and reuses it in later trials and forks.
   */
  @Setup(Level.Trial)
  public void openIndex() throws IOException {
    Configuration configuration = Configurations.all(1L << 30).get(config);
    work = Path.of(System.getProperty("bench.tmpfs", "/dev/shm"))
        .resolve("lucene-nvm-postings-" + config + "-" + numDocs + "-" + vocabulary);
    Files.createDirectories(work);
    directory = configuration.createDirectory(work);
    if (!DirectoryReader.indexExists(directory)) {
      buildIndex(configuration.codec());
    }
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

  private void buildIndex(Codec codec) throws IOException {
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

  private static Query both(Occur occur, String a, String b) {
    return new BooleanQuery.Builder().add(term(a), occur).add(term(b), occur).build();
  }

  /** Closes the index and leaves it in place for the next trial; remove the directory when done. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    IOUtils.close(reader, directory);
  }

  @Benchmark
  public TopDocs termHighTop10() throws IOException {
    return searcher.search(highTerm, 10);
  }

  @Benchmark
  public TopDocs termMediumTop10() throws IOException {
    return searcher.search(mediumTerm, 10);
  }

  @Benchmark
  public TopDocs termLowTop10() throws IOException {
    return searcher.search(lowTerm, 10);
  }

  @Benchmark
  public TopDocs andTop10() throws IOException {
    return searcher.search(conjunction, 10);
  }

  @Benchmark
  public TopDocs orTop10() throws IOException {
    return searcher.search(disjunction, 10);
  }

  @Benchmark
  public TopDocs phraseTop10() throws IOException {
    return searcher.search(phrase, 10);
  }

  /** Visits every posting of the most frequent term: the pure iteration/decoding cost. */
  @Benchmark
  public long iterateHighPostings() throws IOException {
    PostingsEnum postings = leaf.postings(new Term(FIELD, "w0"), PostingsEnum.FREQS);
    long sum = 0;
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
      sum += doc + postings.freq();
    }
    return sum;
  }

  /** Advances through the most frequent term in strides of 97 doc IDs (skip data vs. galloping). */
  @Benchmark
  public long advanceHighPostings() throws IOException {
    PostingsEnum postings = leaf.postings(new Term(FIELD, "w0"), PostingsEnum.NONE);
    long sum = 0;
    for (int doc = postings.advance(0); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.advance(doc + 97)) {
      sum += doc;
    }
    return sum;
  }
}
