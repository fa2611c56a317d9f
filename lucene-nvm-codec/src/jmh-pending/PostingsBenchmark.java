package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
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
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.codec.NvmCodec;
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
 * Compressed ({@code Lucene104}) versus uncompressed in-place ({@code NvmUncompressed}) postings on
 * the same deterministic Zipfian corpus in an {@link MMapDirectory}: BM25 top-10 for term queries
 * of high, medium and low document frequency, a conjunction, a disjunction and a phrase, plus raw
 * postings iteration ({@code nextDoc}+{@code freq}) and strided {@code advance} over the most
 * frequent term. One merged segment, no query cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class PostingsBenchmark {

  private static final String FIELD = "body";

  /** Codec under test: Lucene's default, or the NVM codec with uncompressed postings. */
  @Param({"Lucene104", "NvmCodec"})
  public String codec;

  @Param({"200000"})
  public int numDocs;

  @Param({"50000"})
  public int vocabulary;

  private Path indexPath;
  private Directory directory;
  private DirectoryReader reader;
  private IndexSearcher searcher;
  private Query highTerm;
  private Query mediumTerm;
  private Query lowTerm;
  private Query conjunction;
  private Query disjunction;
  private Query phrase;
  private PostingsEnum reusedPostings;

  @Setup(Level.Trial)
  public void buildIndex() throws IOException {
    indexPath = Files.createTempDirectory("postings-bench");
    directory = new MMapDirectory(indexPath);
    Codec selected = "NvmCodec".equals(codec) ? new NvmCodec() : new Lucene104Codec();
    IndexWriterConfig config =
        new IndexWriterConfig(new StandardAnalyzer()).setCodec(selected).setRAMBufferSizeMB(256);
    ZipfWords words = new ZipfWords(new Random(42), vocabulary);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      for (int i = 0; i < numDocs; i++) {
        Document doc = new Document();
        doc.add(new TextField(FIELD, words.text(10 + (i % 90)), Field.Store.NO));
        writer.addDocument(doc);
      }
      writer.forceMerge(1);
    }
    reader = DirectoryReader.open(directory);
    searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    highTerm = new TermQuery(new Term(FIELD, "w0"));
    mediumTerm = new TermQuery(new Term(FIELD, "w100"));
    lowTerm = new TermQuery(new Term(FIELD, "w5000"));
    conjunction = both(Occur.MUST, "w1", "w3");
    disjunction = both(Occur.SHOULD, "w2", "w30");
    phrase = new PhraseQuery(FIELD, "w0", "w1");
  }

  private static Query both(Occur occur, String a, String b) {
    return new BooleanQuery.Builder()
        .add(new TermQuery(new Term(FIELD, a)), occur)
        .add(new TermQuery(new Term(FIELD, b)), occur)
        .build();
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    IOUtils.close(reader, directory);
    IOUtils.rm(indexPath);
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
    LeafReader leaf = reader.leaves().get(0).reader();
    reusedPostings = leaf.postings(new Term(FIELD, "w0"), PostingsEnum.FREQS);
    long sum = 0;
    for (int doc = reusedPostings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = reusedPostings.nextDoc()) {
      sum += doc + reusedPostings.freq();
    }
    return sum;
  }

  /** Advances through the most frequent term in strides of 97 doc IDs (skip-list vs. galloping). */
  @Benchmark
  public long advanceHighPostings() throws IOException {
    LeafReader leaf = reader.leaves().get(0).reader();
    PostingsEnum postings = leaf.postings(new Term(FIELD, "w0"), PostingsEnum.NONE);
    long sum = 0;
    for (int doc = postings.advance(0);
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.advance(doc + 97)) {
      sum += doc;
    }
    return sum;
  }

  /** Words {@code w0, w1, ...} drawn with Zipf (s = 1) frequencies from a fixed seed. */
  private static final class ZipfWords {
    private final Random random;
    private final double[] cumulative;

    ZipfWords(Random random, int vocabulary) {
      this.random = random;
      cumulative = new double[vocabulary];
      double sum = 0;
      for (int rank = 0; rank < vocabulary; rank++) {
        sum += 1.0 / (rank + 1);
        cumulative[rank] = sum;
      }
      for (int rank = 0; rank < vocabulary; rank++) {
        cumulative[rank] /= sum;
      }
    }

    String text(int length) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < length; i++) {
        int rank = java.util.Arrays.binarySearch(cumulative, random.nextDouble());
        text.append('w').append(rank < 0 ? -rank - 1 : rank).append(' ');
      }
      return text.toString();
    }
  }
}
