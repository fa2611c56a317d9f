package org.lucenenvm.bench;

import java.nio.file.Path;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * Settings shared by NC and WRT runs.
 *
 * @param corpus line-doc file
 * @param docs documents to index (the first {@code docs} of the corpus)
 * @param workDir where indexes and pools are created (one sub-directory per configuration, removed
 *     afterwards unless {@code keepIndexes})
 * @param keepIndexes keep the indexes after the run
 * @param queryThreads query threads
 * @param pinThreads pin query and ingest threads to CPUs where the machine allows it
 * @param queriesPerCategory timed queries per category (NC mode)
 * @param warmupQueriesPerCategory untimed queries per category before the timed ones (NC mode)
 * @param warmupShare share of the corpus ingested before WRT queries are timed, in [0, 1]; 1 times
 *     queries only after the whole corpus was acknowledged, with nothing ingesting (see {@link
 *     #staticWindow()})
 * @param topK hits collected per query
 * @param ramBufferMb IndexWriter RAM buffer
 * @param forceMergeSegments NC mode: force-merge to this many segments after indexing, 0 = never
 * @param fullFlushMergeWaitMillis how long a refresh or commit waits for merging small new segments
 *     ({@code IndexWriterConfig#setMaxFullFlushMergeWaitMillis}; Lucene's default is 500, 0 = never)
 * @param ingestRate WRT: documents per second the ingestion is paced at ({@link IngestPacer}), 0 =
 *     unpaced
 */
public record RunSettings(
    Path corpus,
    long docs,
    Path workDir,
    boolean keepIndexes,
    int queryThreads,
    boolean pinThreads,
    int queriesPerCategory,
    int warmupQueriesPerCategory,
    double warmupShare,
    int topK,
    double ramBufferMb,
    int forceMergeSegments,
    long fullFlushMergeWaitMillis,
    double ingestRate) {

  /** Checks the ranges. */
  public RunSettings {
    if (docs < 1) {
      throw new IllegalArgumentException("docs must be >= 1: " + docs);
    }
    if (queryThreads < 1) {
      throw new IllegalArgumentException("query threads must be >= 1: " + queryThreads);
    }
    if (queriesPerCategory < 1 || warmupQueriesPerCategory < 0) {
      throw new IllegalArgumentException("queries per category must be >= 1 and warm-up queries >= 0");
    }
    if (!(warmupShare >= 0 && warmupShare <= 1)) {
      throw new IllegalArgumentException("warm-up share must be in [0, 1]: " + warmupShare);
    }
    if (topK < 1 || ramBufferMb <= 0 || forceMergeSegments < 0 || fullFlushMergeWaitMillis < 0) {
      throw new IllegalArgumentException("top-k must be >= 1, RAM buffer > 0, force-merge segments and merge wait >= 0");
    }
    if (ingestRate != 0) {
      IngestPacer.checkRate(ingestRate);
    }
  }

  /** Whether WRT ingestion is paced ({@link #ingestRate()} > 0). */
  public boolean paced() {
    return ingestRate > 0;
  }

  /** IndexWriter settings shared by both modes, for an index written with {@code codec}. */
  public IndexWriterConfig writerConfig(Analyzer analyzer, Codec codec) {
    return new IndexWriterConfig(analyzer)
        .setCodec(codec)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(ramBufferMb)
        .setMaxFullFlushMergeWaitMillis(fullFlushMergeWaitMillis);
  }

  /**
   * Whether WRT queries are timed on a static target ({@code warmupShare} 1): the window opens when
   * the last document was acknowledged and closes after {@code queriesPerCategory} timed queries
   * per category (over all query threads), nothing being ingested meanwhile.
   */
  public boolean staticWindow() {
    return warmupShare == 1;
  }

  /**
   * These settings for an untimed pass: the first {@code passDocs} documents (at most {@link
   * #docs()}), indexes under {@code scratchDir}, never kept; paced as the timed pass.
   */
  public RunSettings forScratchPass(long passDocs, Path scratchDir) {
    return new RunSettings(corpus, Math.min(passDocs, docs), scratchDir, false, queryThreads, pinThreads, queriesPerCategory,
        warmupQueriesPerCategory, warmupShare, topK, ramBufferMb, forceMergeSegments, fullFlushMergeWaitMillis, ingestRate);
  }

  /** Documents ingested before WRT queries are timed. */
  public long warmupDocs() {
    return (long) Math.floor(warmupShare * docs);
  }
}
