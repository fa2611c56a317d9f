package org.lucenenvm.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.codec.NvmPostingsFormat;
import org.lucenenvm.store.NvmDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code merge}: a linked (zero-copy) merge against a copying merge of the same segments on an
 * {@link NvmDirectory} pool. The source segments ({@code --segments} of {@code --segment-docs}
 * documents each, {@link NvmCodec}) are built once into a pool file; each trial copies that file,
 * opens it and merges all its segments into one, as a natural (not forced) merge through {@code
 * IndexWriter}, with {@link NvmPostingsFormat.MergeMode#LINK} or {@link
 * NvmPostingsFormat.MergeMode#COPY}, the order alternating per round. A trial reports the merge's
 * time (merge plus commit), the bytes it wrote to the pool ({@link NvmDirectory#bytesWritten()}),
 * whether the merged segment is linked and, with {@code --tasks}, the mean latency of each task
 * category's queries on the merged segment (untimed warm-up first).
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description =
        "Linked (zero-copy) against copying merges of the same NvmCodec segments on an NVM pool: "
            + "merge time, bytes written to the pool, and query latency on the merged segment.")
final class MergeCommand implements Callable<Integer> {

  @Option(names = "--corpus", required = true, description = "luceneutil line-doc file.")
  Path corpus;

  @Option(names = "--tasks", description = "luceneutil .tasks file: time each category's queries on the merged segment.")
  Path tasks;

  @Option(names = "--segment-docs", defaultValue = "20000", description = "Documents per source segment (default ${DEFAULT-VALUE}).")
  int segmentDocs;

  @Option(names = "--segments", defaultValue = "8", description = "Source segments merged into one (default ${DEFAULT-VALUE}).")
  int segments;

  @Option(names = "--rounds", defaultValue = "3", description = "Rounds; each merges once per mode, the order alternating (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--queries", defaultValue = "400", description = "Timed queries per category and trial (default ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--pool-size", defaultValue = "0", description = "Bytes of each pool file; 0 (default): 3,000 per source document, at least 512 MiB.")
  long poolBytes;

  @Option(names = "--work-dir", defaultValue = "/dev/shm/lucene-nvm-bench/merge", description = "Where the pool files go (default ${DEFAULT-VALUE}).")
  Path workDir;

  @Option(names = "--out", description = "Also write the trials as CSV to this file.")
  Path out;

  private static final NvmPostingsFormat.MergeMode[] MODES = NvmPostingsFormat.MergeMode.values();

  /** One merge of the sources and what it cost. */
  private record Trial(int round, NvmPostingsFormat.MergeMode mode, double seconds, long bytesWritten, long segmentBytes, boolean linked,
      Map<String, Long> writtenByExtension, Map<String, Double> meanMicros) {}

  @Override
  public Integer call() throws Exception {
    if (segments < 2 || segmentDocs < 1 || rounds < 1 || queries < 1) {
      throw new IllegalArgumentException("--segments must be >= 2, --segment-docs, --rounds and --queries >= 1");
    }
    long needed = (long) segments * segmentDocs;
    long available = CorpusIngest.countDocs(corpus);
    if (needed > available) {
      throw new IllegalArgumentException(segments + " segments of " + segmentDocs + " documents need " + needed + " but " + corpus + " has " + available);
    }
    if (poolBytes <= 0) {
      poolBytes = Math.max(512L << 20, needed * 3_000);
    }
    Files.createDirectories(workDir);
    Path sources = workDir.resolve("sources.pool");
    Path trialPool = workDir.resolve("trial.pool");
    try (Analyzer analyzer = new StandardAnalyzer()) {
      Workload workload = tasks == null ? null : Workload.parse(TaskFile.read(tasks), List.of(), DocumentFactory.BODY, analyzer, 42);
      buildSources(sources, analyzer);
      List<Trial> trials = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        for (int i = 0; i < MODES.length; i++) {
          NvmPostingsFormat.MergeMode mode = MODES[(i + round) % MODES.length];
          Files.copy(sources, trialPool, StandardCopyOption.REPLACE_EXISTING);
          Trial trial = merge(round, mode, trialPool, analyzer, workload);
          trials.add(trial);
          System.err.printf(Locale.ROOT, "round %d %s: %.3f s, %,d bytes written, linked %s%n", round, mode, trial.seconds(), trial.bytesWritten(), trial.linked());
        }
      }
      report(trials, System.out);
      if (out != null) {
        try (PrintStream csv = new PrintStream(Files.newOutputStream(out), true, "UTF-8")) {
          csv(trials, csv);
        }
      }
    } finally {
      Files.deleteIfExists(trialPool);
      Files.deleteIfExists(sources);
    }
    return 0;
  }

  /** Writes the source segments: {@code segments} flushes of {@code segmentDocs} documents, no merges. */
  private void buildSources(Path pool, Analyzer analyzer) throws IOException {
    Files.deleteIfExists(pool);
    IndexWriterConfig config =
        new IndexWriterConfig(analyzer)
            .setCodec(new NvmCodec())
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setUseCompoundFile(false)
            .setRAMBufferSizeMB(1024)
            .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    try (NvmDirectory directory = NvmDirectory.open(pool, poolBytes);
        IndexWriter writer = new IndexWriter(directory, config)) {
      DocumentFactory factory = new DocumentFactory();
      long[] added = {0};
      CorpusIngest.ingest(
          corpus,
          (long) segments * segmentDocs,
          doc -> {
            writer.addDocument(factory.toDocument(doc));
            if (++added[0] % segmentDocs == 0) {
              writer.flush();
            }
          },
          acked -> {},
          "merge sources");
      writer.commit();
      int built = SegmentInfos.readLatestCommit(directory).size();
      if (built != segments) {
        throw new IllegalStateException("built " + built + " source segments, expected " + segments);
      }
    }
  }

  private Trial merge(int round, NvmPostingsFormat.MergeMode mode, Path pool, Analyzer analyzer, Workload workload) throws IOException {
    NvmPostingsFormat format = new NvmPostingsFormat(mode, Math.max(segments, NvmPostingsFormat.DEFAULT_MAX_RUNS_PER_TERM));
    Codec codec = new NvmCodec(field -> format);
    IndexWriterConfig config =
        new IndexWriterConfig(analyzer)
            .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
            .setCodec(codec)
            .setMergePolicy(new MergeAll())
            .setMergeScheduler(new SerialMergeScheduler())
            .setUseCompoundFile(false);
    try (NvmDirectory directory = NvmDirectory.open(pool, poolBytes)) {
      long written = directory.bytesWritten();
      long start = System.nanoTime();
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        writer.maybeMerge();
        writer.commit();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      written = directory.bytesWritten() - written;
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      if (infos.size() != 1) {
        throw new IllegalStateException(mode + ": merge left " + infos.size() + " segments");
      }
      SegmentCommitInfo merged = infos.info(0);
      boolean linked = NvmPostingsFormat.isLinked(merged.info);
      Map<String, Long> byExtension = new TreeMap<>();
      for (String file : merged.files()) {
        if (!NvmPostingsFormat.isRunFile(file)) { // a run file is a clone: nothing written
          byExtension.merge(file.substring(file.lastIndexOf('.') + 1), directory.fileLength(file), Long::sum);
        }
      }
      Map<String, Double> micros = workload == null ? Map.of() : queryMeans(directory, workload);
      return new Trial(round, mode, seconds, written, merged.sizeInBytes(), linked, byExtension, micros);
    }
  }

  /** Mean microseconds per query of each category on the merged index, after an untimed pass. */
  private Map<String, Double> queryMeans(NvmDirectory directory, Workload workload) throws IOException {
    Map<String, Double> means = new TreeMap<>();
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = SearcherFactories.uncached(reader);
      for (String category : workload.categories()) {
        List<Query> list = workload.queries(category);
        run(searcher, list, queries);
        long start = System.nanoTime();
        run(searcher, list, queries);
        means.put(category, (System.nanoTime() - start) / 1e3 / queries);
      }
    }
    return means;
  }

  private static void run(IndexSearcher searcher, List<Query> list, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      searcher.search(list.get(i % list.size()), 10);
    }
  }

  /** Medians per mode and the ratios the targets are stated in. */
  private void report(List<Trial> trials, PrintStream out) {
    out.printf(Locale.ROOT, "merge of %d segments of %,d documents (%s), %d rounds%n", segments, segmentDocs, corpus.getFileName(), rounds);
    Map<NvmPostingsFormat.MergeMode, List<Trial>> byMode = new TreeMap<>();
    for (Trial t : trials) {
      byMode.computeIfAbsent(t.mode(), m -> new ArrayList<>()).add(t);
    }
    for (var e : byMode.entrySet()) {
      List<Trial> list = e.getValue();
      out.printf(Locale.ROOT, "%-5s merge s median %.3f (min %.3f, max %.3f); bytes written median %,d; merged segment %,d bytes; linked %s%n",
          e.getKey(), median(list, Trial::seconds), list.stream().mapToDouble(Trial::seconds).min().orElseThrow(),
          list.stream().mapToDouble(Trial::seconds).max().orElseThrow(), (long) median(list, t -> t.bytesWritten()),
          list.get(0).segmentBytes(), list.stream().allMatch(Trial::linked));
    }
    List<Trial> link = byMode.get(NvmPostingsFormat.MergeMode.LINK);
    List<Trial> copy = byMode.get(NvmPostingsFormat.MergeMode.COPY);
    out.println("bytes of the merged segment's written (not cloned) files by extension, LINK then COPY:");
    out.println("  LINK " + link.get(0).writtenByExtension());
    out.println("  COPY " + copy.get(0).writtenByExtension());
    out.printf(Locale.ROOT, "LINK against COPY: %.2fx faster, %.1f %% of the bytes written%n",
        median(copy, Trial::seconds) / median(link, Trial::seconds), 100.0 * median(link, t -> t.bytesWritten()) / median(copy, t -> t.bytesWritten()));
    for (String category : link.get(0).meanMicros().keySet()) {
      double l = median(link, t -> t.meanMicros().get(category));
      double c = median(copy, t -> t.meanMicros().get(category));
      out.printf(Locale.ROOT, "  %-24s LINK %.1f us, COPY %.1f us: LINK speed %.2fx COPY's%n", category, l, c, c / l);
    }
  }

  private static void csv(List<Trial> trials, PrintStream out) {
    out.println("round,mode,merge_seconds,bytes_written,segment_bytes,linked,category,mean_us");
    for (Trial t : trials) {
      String head = String.format(Locale.ROOT, "%d,%s,%.4f,%d,%d,%s", t.round(), t.mode(), t.seconds(), t.bytesWritten(), t.segmentBytes(), t.linked());
      if (t.meanMicros().isEmpty()) {
        out.println(head + ",,");
      }
      t.meanMicros().forEach((category, us) -> out.printf(Locale.ROOT, "%s,%s,%.2f%n", head, category, us));
    }
  }

  private static double median(List<Trial> list, java.util.function.ToDoubleFunction<Trial> value) {
    double[] v = list.stream().mapToDouble(value).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** Merges every segment into one, as a natural merge, never into a compound file (which linking forbids). */
  private static final class MergeAll extends MergePolicy {
    MergeAll() {
      setNoCFSRatio(0.0);
    }

    @Override
    public MergeSpecification findMerges(MergeTrigger trigger, SegmentInfos infos, MergeContext context) {
      if (infos.size() < 2) {
        return null;
      }
      MergeSpecification spec = new MergeSpecification();
      spec.add(new OneMerge(infos.asList()));
      return spec;
    }

    @Override
    public MergeSpecification findForcedMerges(SegmentInfos infos, int maxSegmentCount, Map<SegmentCommitInfo, Boolean> segmentsToMerge, MergeContext context) {
      return null;
    }

    @Override
    public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context) {
      return null;
    }
  }
}
