package org.lucenenvm.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.Impact;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.VectorUtil;

/**
 * Session 36 experiment (not part of the build): how fast could term and AND top-10 queries be if
 * reading postings cost nothing beyond copying decoded arrays?
 *
 * <p>{@code Ceiling <config> <index-dir> <plain|oracle|exact> <out-dir> <warmup> <timed> <categories>}
 * opens a kept NC index of {@code config} the way the runner does, runs the runner's protocol (an
 * interleaved warm-up of every category, then per category a warm-up and a timed run of
 * {@code searcher.search(query, 10)}) and writes one CSV line per category. With {@code oracle},
 * every leaf is wrapped so that {@code TermsEnum.impacts}/{@code postings} return an enum over the
 * term's doc IDs and freqs decoded once into heap arrays (cached by term across queries), batched
 * in 256-posting blocks as Lucene104 does, while {@code advanceShallow}/{@code getImpacts} are
 * delegated to the index's own impacts enum: same documents scored, same scores, no decoding. With
 * {@code exact}, impacts too come from the arrays: exact competitive (freq, norm) lists, computed
 * once with Lucene's CompetitiveImpactAccumulator, of windows of {@code -Doracle.window} postings
 * (level 0) and of 32 such windows (level 1). {@code -Dtasks} names the .tasks file.
 */
public final class Ceiling {

  public static void main(String[] args) throws Exception {
    String config = args[0];
    Path indexDir = Path.of(args[1]);
    String mode = args[2];
    boolean oracle = !mode.equals("plain");
    int window = mode.equals("exact") ? Integer.getInteger("oracle.window", 256) : 0;
    Path out = Path.of(args[3]);
    int warmup = Integer.parseInt(args[4]);
    int timed = Integer.parseInt(args[5]);
    List<String> categories = List.of(args[6].split(","));
    Path tasks = Path.of(System.getProperty("tasks"));
    Files.createDirectories(out);
    Configuration configuration = Configurations.select(List.of(config), 6L << 30).get(0);
    try (Analyzer analyzer = new StandardAnalyzer();
        Directory directory = configuration.createDirectory(indexDir);
        DirectoryReader plainReader = DirectoryReader.open(directory)) {
      Workload workload = Workload.parse(TaskFile.read(tasks), categories, "body", analyzer, 1).withPopularity(QueryPopularity.UNIFORM, 1);
      DirectoryReader reader = oracle ? new OracleReader(plainReader, window) : plainReader;
      IndexSearcher searcher = SearcherFactories.uncached(reader);
      List<Query> mixed = workload.interleaved(warmup);
      run(searcher, mixed, mixed.size(), null);
      try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("results.csv")))) {
        csv.println("category,qps,p50_us,mean_us");
        for (String category : workload.categories()) {
          List<Query> queries = workload.queries(category);
          run(searcher, queries, warmup, null);
          long[] nanos = new long[timed];
          long start = System.nanoTime();
          run(searcher, queries, timed, nanos);
          double seconds = (System.nanoTime() - start) / 1e9;
          Arrays.sort(nanos);
          csv.printf("%s,%.1f,%.2f,%.2f%n", category, timed / seconds, nanos[timed / 2] / 1e3, Arrays.stream(nanos).average().orElse(0) / 1e3);
        }
      }
      try (PrintWriter hits = new PrintWriter(Files.newBufferedWriter(out.resolve("hits.tsv")))) {
        for (String category : workload.categories()) {
          List<Query> queries = workload.queries(category);
          for (int q = 0; q < queries.size(); q++) {
            TopDocs top = searcher.search(queries.get(q), 10);
            StringBuilder line = new StringBuilder(category).append('\t').append(queries.get(q)).append('\t').append(top.totalHits);
            for (ScoreDoc sd : top.scoreDocs) {
              line.append('\t').append(sd.doc).append(':').append(sd.score);
            }
            hits.println(line);
          }
        }
      }
    }
  }

  private static void run(IndexSearcher searcher, List<Query> queries, int count, long[] nanos) throws IOException {
    long sink = 0;
    for (int i = 0; i < count; i++) {
      Query query = queries.get(i % queries.size());
      long start = System.nanoTime();
      TopDocs top = searcher.search(query, 10);
      long took = System.nanoTime() - start;
      sink += top.totalHits.value();
      if (nanos != null) {
        nanos[i] = took;
      }
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  /** Decoded postings of one term; {@code levels} are exact impacts (null: the index's own). */
  record Decoded(int[] docs, float[] freqs, int size, int[] blockLast, Levels levels) {}

  interface NormsSource {
    NumericDocValues get() throws IOException;
  }

  /**
   * Exact competitive (freq, norm) pairs of windows of {@code window} postings (level 0) and of
   * {@code 32 * window} postings (level 1), computed with Lucene's CompetitiveImpactAccumulator.
   */
  record Levels(int[][] last, FreqAndNormBuffer[][] impacts) {
    static Levels of(int[] docs, float[] freqs, int size, NumericDocValues norms, int window) throws IOException {
      long[] normOf = new long[size];
      for (int k = 0; k < size; k++) {
        normOf[k] = norms.advanceExact(docs[k]) ? norms.longValue() : 1L;
      }
      int[][] last = new int[2][];
      FreqAndNormBuffer[][] impacts = new FreqAndNormBuffer[2][];
      for (int level = 0; level < 2; level++) {
        int w = level == 0 ? window : window * 32;
        int n = (size + w - 1) / w;
        last[level] = new int[n];
        impacts[level] = new FreqAndNormBuffer[n];
        CompetitiveImpactAccumulator acc = new CompetitiveImpactAccumulator();
        for (int b = 0; b < n; b++) {
          acc.clear();
          int end = Math.min(size, (b + 1) * w);
          for (int k = b * w; k < end; k++) {
            acc.add((int) freqs[k], normOf[k]);
          }
          FreqAndNormBuffer buffer = new FreqAndNormBuffer();
          for (Impact impact : acc.getCompetitiveFreqNormPairs()) {
            buffer.add(impact.freq, impact.norm);
          }
          last[level][b] = docs[end - 1];
          impacts[level][b] = buffer;
        }
      }
      return new Levels(last, impacts);
    }
  }

  /** Impacts of {@link Levels}, with cursors that only move forward. */
  static final class ExactImpacts extends Impacts {
    private static final FreqAndNormBuffer DUMMY = new FreqAndNormBuffer();

    static {
      DUMMY.add(Integer.MAX_VALUE, 1L);
    }

    private final Levels levels;
    private final int[] cursor = new int[2];

    ExactImpacts(Levels levels) {
      this.levels = levels;
    }

    void advanceShallow(int target) {
      for (int level = 0; level < 2; level++) {
        int[] last = levels.last()[level];
        if (cursor[level] < last.length && last[cursor[level]] < target) {
          cursor[level] = VectorUtil.findNextGEQ(last, target, cursor[level], last.length);
        }
      }
    }

    @Override
    public int numLevels() {
      return cursor[1] < levels.last()[1].length ? 2 : 1;
    }

    @Override
    public int getDocIdUpTo(int level) {
      int[] last = levels.last()[level];
      return cursor[level] < last.length ? last[cursor[level]] : DocIdSetIterator.NO_MORE_DOCS;
    }

    @Override
    public FreqAndNormBuffer getImpacts(int level) {
      return cursor[level] < levels.last()[level].length ? levels.impacts()[level][cursor[level]] : DUMMY;
    }
  }

  static final class OracleReader extends FilterDirectoryReader {
    private final int window;

    OracleReader(DirectoryReader in, int window) throws IOException {
      super(in, new SubReaderWrapper() {
        @Override
        public LeafReader wrap(LeafReader reader) {
          return new OracleLeaf(reader, window);
        }
      });
      this.window = window;
    }

    @Override
    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
      return new OracleReader(in, window);
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }

  static final class OracleLeaf extends FilterLeafReader {
    private final Map<String, Map<BytesRef, Decoded>> cache = new HashMap<>();

    private final int window;

    OracleLeaf(LeafReader in, int window) {
      super(in);
      this.window = window;
    }

    @Override
    public Terms terms(String field) throws IOException {
      Terms terms = in.terms(field);
      if (terms == null) {
        return null;
      }
      Map<BytesRef, Decoded> byTerm = cache.computeIfAbsent(field, f -> new HashMap<>());
      return new FilterTerms(terms) {
        @Override
        public TermsEnum iterator() throws IOException {
          return new OracleTermsEnum(in.iterator(), byTerm, window > 0 ? (NormsSource) () -> OracleLeaf.this.in.getNormValues(field) : null, window);
        }
      };
    }

    @Override
    public CacheHelper getCoreCacheHelper() {
      return null;
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }

  static final class OracleTermsEnum extends FilterLeafReader.FilterTermsEnum {
    private final Map<BytesRef, Decoded> byTerm;
    private final NormsSource norms;
    private final int window;

    OracleTermsEnum(TermsEnum in, Map<BytesRef, Decoded> byTerm, NormsSource norms, int window) {
      super(in);
      this.byTerm = byTerm;
      this.norms = norms;
      this.window = window;
    }

    private Decoded decoded() throws IOException {
      BytesRef term = in.term();
      Decoded d = byTerm.get(term);
      if (d == null) {
        PostingsEnum pe = in.postings(null, PostingsEnum.FREQS);
        int[] docs = new int[Math.max(1, in.docFreq()) + 1];
        float[] freqs = new float[docs.length];
        int n = 0;
        for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
          docs[n] = doc;
          freqs[n] = pe.freq();
          n++;
        }
        docs[n] = DocIdSetIterator.NO_MORE_DOCS;
        int[] blockLast = new int[(n + 255) / 256];
        for (int b = 0; b < blockLast.length; b++) {
          blockLast[b] = docs[Math.min(n, (b + 1) * 256) - 1];
        }
        d = new Decoded(docs, freqs, n, blockLast, window > 0 ? Levels.of(docs, freqs, n, norms.get(), window) : null);
        byTerm.put(BytesRef.deepCopyOf(term), d);
      }
      return d;
    }

    @Override
    public PostingsEnum postings(PostingsEnum reuse, int flags) throws IOException {
      if (PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS)) {
        return in.postings(reuse, flags);
      }
      return new OracleEnum(decoded(), null);
    }

    @Override
    public ImpactsEnum impacts(int flags) throws IOException {
      if (PostingsEnum.featureRequested(flags, PostingsEnum.POSITIONS)) {
        return in.impacts(flags);
      }
      Decoded d = decoded();
      return new OracleEnum(d, d.levels() == null ? in.impacts(PostingsEnum.FREQS) : null);
    }
  }

  /** Postings from arrays; impacts from the index's own enum. */
  static final class OracleEnum extends ImpactsEnum {
    private static final int BLOCK = 256;
    private final int[] docs;
    private final float[] freqs;
    private final int size;
    private final int[] blockLast;
    private final ImpactsEnum impacts;
    private final ExactImpacts exact;
    private int i = -1;
    private int doc = -1;

    OracleEnum(Decoded d, ImpactsEnum impacts) {
      this.docs = d.docs();
      this.freqs = d.freqs();
      this.size = d.size();
      this.blockLast = d.blockLast();
      this.impacts = impacts;
      this.exact = d.levels() == null ? null : new ExactImpacts(d.levels());
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() {
      return doc = docs[++i];
    }

    @Override
    public int advance(int target) {
      int block = VectorUtil.findNextGEQ(blockLast, target, (i + 1) / BLOCK, blockLast.length);
      if (block == blockLast.length) {
        i = size;
        return doc = DocIdSetIterator.NO_MORE_DOCS;
      }
      i = VectorUtil.findNextGEQ(docs, target, Math.max(i + 1, block * BLOCK), Math.min(size, (block + 1) * BLOCK));
      return doc = docs[i];
    }

    @Override
    public void nextPostings(int upTo, DocAndFloatFeatureBuffer buffer) {
      buffer.size = 0;
      if (doc >= upTo) {
        return;
      }
      int blockEnd = Math.min(size, (i / BLOCK + 1) * BLOCK);
      int end = blockEnd;
      if (docs[blockEnd - 1] >= upTo) {
        end = VectorUtil.findNextGEQ(docs, upTo, i, blockEnd);
      }
      int n = end - i;
      buffer.growNoCopy(BLOCK + 1);
      System.arraycopy(docs, i, buffer.docs, 0, n);
      System.arraycopy(freqs, i, buffer.features, 0, n);
      buffer.size = n;
      i = end;
      doc = docs[end];
    }

    @Override
    public void intoBitSet(int upTo, FixedBitSet bitSet, int offset) {
      while (doc < upTo) {
        bitSet.set(doc - offset);
        doc = docs[++i];
      }
    }

    @Override
    public long cost() {
      return size;
    }

    @Override
    public int freq() {
      return (int) freqs[i];
    }

    @Override
    public int nextPosition() {
      return -1;
    }

    @Override
    public int startOffset() {
      return -1;
    }

    @Override
    public int endOffset() {
      return -1;
    }

    @Override
    public BytesRef getPayload() {
      return null;
    }

    @Override
    public void advanceShallow(int target) throws IOException {
      if (exact != null) {
        exact.advanceShallow(target);
      } else {
        impacts.advanceShallow(target);
      }
    }

    @Override
    public Impacts getImpacts() throws IOException {
      return exact != null ? exact : impacts.getImpacts();
    }
  }
}
