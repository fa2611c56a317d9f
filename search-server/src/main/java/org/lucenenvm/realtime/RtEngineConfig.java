package org.lucenenvm.realtime;

import java.time.Duration;
import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.lucenenvm.cache.ResultCacheSettings;

/**
 * Settings of an {@link RtEngine}. Defaults: {@link StandardAnalyzer}, {@link BM25Similarity},
 * {@link Codec#getDefault()} (Lucene104), 20,000-doc segments, 256 MiB DRAM budget, unlimited NVM
 * budget, {@link PipelinePolicy#EAGER_ENGRAVE_LAZY_POINTER}, {@link DurabilityMode#VOLATILE},
 * merges of at most 10 segments, at most 10 segments per partition, a flush queue of 1 segment,
 * one partition, a 128 MiB ingest log per partition (crash-consistent mode only) and a 30 s wait
 * for room in it, statistics per query, no result cache, the background threads at nice 10
 * (Linux), a flood stage at 95% of the pool and merges that keep deleted documents masked while
 * at most 20% of their sources' documents are deleted where merges link (off by default). Copies with one setting changed come
 * from the {@code with...} methods.
 *
 * @param schema the fields documents may carry
 * @param analyzer analyzer for {@link FieldKind#TEXT} fields (also used for nothing else)
 * @param similarity computes norms at indexing and scores at search
 * @param codec codec of flushed and merged segments
 * @param segmentSize documents per live segment (flush threshold)
 * @param dramBudgetBytes bytes of read-optimized segments a partition keeps in DRAM before
 *     committing them to NVM
 * @param nvmBudgetBytes bytes of segment files a partition may keep in the NVM directory
 * @param policy engrave / pointer-update policy
 * @param mode durability mode
 * @param mergeFactor the most segments one merge joins (the tier factor of the merge policy)
 * @param queueCapacity full live segments that may wait for their flush before ingestion waits
 * @param partitions number of document partitions (SPIRIT's executors)
 * @param maxSegments segments per partition the merger keeps the table within (live ones included;
 *     a merge in progress may briefly leave one more)
 * @param statistics which documents the scoring statistics of a query come from (default {@link
 *     StatisticsMode#PER_QUERY})
 * @param statisticsLagSegments under {@link StatisticsMode#PER_EPOCH}, how many new Lucene segments
 *     per partition the epoch may leave out (searched like the live tail) before it advances; 0
 *     (default): every flush advances it. A merge of an epoch segment always does.
 * @param cache the result cache's settings (default {@link ResultCacheSettings#DISABLED}); an
 *     enabled cache needs {@link StatisticsMode#PER_EPOCH}
 * @param logBytes record area of each partition's ingest log in {@link
 *     DurabilityMode#CRASH_CONSISTENT} mode (an existing log keeps the size it was created with);
 *     the live segment is handed to the pipeline early once its operations take a {@code
 *     (queueCapacity + 2)}-th of it, so the log holds at most the segments the pipeline can queue
 * @param logFullTimeout how long a write waits for room in a full ingest log before it fails with
 *     {@link IngestLogFullException}
 * @param backgroundNice the nice value (0 to 19) of the pipeline's indexer and merger threads on
 *     Linux, so that they yield the CPU to the threads that add documents and answer queries
 *     (RocksDB lowers its compaction threads' priority the same way); 0 leaves them at their
 *     process's priority; ignored, with a warning, where the C library cannot set it
 * @param floodStage the share of the NVM pool (an {@link org.lucenenvm.store.NvmDirectory}'s; of
 *     its size plus what it can still grow by, {@link
 *     org.lucenenvm.store.NvmDirectory#growableBytes()}) at or above which adds and updates are refused with {@link FloodStageException} while searches,
 *     gets and deletes go on; in (0, 1], 1 refuses them only while a segment waits for room. The
 *     rest of the pool is room for the merges that reclaim deleted documents and for the segments
 *     already taken in
 * @param mergeDeletesPctAllowed the largest share (percent, 0 to 100) of deleted documents among a
 *     merge's sources for which the merge keeps them, masked by the merged segment's deletions,
 *     instead of dropping them (modelled on {@link
 *     org.apache.lucene.index.TieredMergePolicy#setDeletesPctAllowed}): such a merge renumbers
 *     nothing, so a codec can link its sources' postings instead of copying them; a merge above
 *     it drops the deleted documents, which is also how segments that kept deletions through
 *     merges are compacted in the end. Merges that reclaim room on a full pool always drop them.
 *     Only merges that can link keep them: with a codec other than {@code NvmCodec}, or without
 *     {@code linkedMerges}, every merge drops deleted documents (keeping them would only cost room)
 * @param linkedMerges with an {@code NvmCodec}, whether merges link their sources' postings
 *     (zero-copy: the merged segment's postings are clones of its sources' files, see {@code
 *     NvmPostingsFormat.MergeMode#LINK}) rather than copy them; default false, since queries on a
 *     linked segment of 6 runs measured 0.4-0.9x as fast as on a copied one
 *     (benchmarks/results/zero-copy-merge). A merge whose terms
 *     would span more than {@code max(mergeFactor, 8)} runs copies, which compacts chains of
 *     linked segments
 */
public record RtEngineConfig(
    RtSchema schema,
    Analyzer analyzer,
    Similarity similarity,
    Codec codec,
    int segmentSize,
    long dramBudgetBytes,
    long nvmBudgetBytes,
    PipelinePolicy policy,
    DurabilityMode mode,
    int mergeFactor,
    int queueCapacity,
    int partitions,
    int maxSegments,
    StatisticsMode statistics,
    int statisticsLagSegments,
    ResultCacheSettings cache,
    long logBytes,
    Duration logFullTimeout,
    int backgroundNice,
    double floodStage,
    double mergeDeletesPctAllowed,
    boolean linkedMerges) {
  /**
   * Default {@link #segmentSize}: 20,000 documents. With {@link #DEFAULT_QUEUE_CAPACITY}, at 1 M
   * documents, it ingested 1.2× as fast as 10,000-document segments with a queue of 4 and answered
   * 1.0–1.4× their QPS: fewer, larger flushed segments are rewritten less by the merges, for about
   * as many live documents per query.
   */
  public static final int DEFAULT_SEGMENT_SIZE = 20_000;

  /**
   * Default {@link #queueCapacity}: one full live segment waits for its flush, so the live
   * segments take few of the partition's {@link #maxSegments} and the flushed ones are merged less
   * often.
   */
  public static final int DEFAULT_QUEUE_CAPACITY = 1;

  /** Default {@link #logBytes}: 128 MiB per partition. */
  public static final long DEFAULT_LOG_BYTES = 128L << 20;
  /** Smallest {@link #logBytes}: 64 KiB. */
  public static final long MIN_LOG_BYTES = 64L << 10;
  /** Default {@link #logFullTimeout}: 30 s. */
  public static final Duration DEFAULT_LOG_FULL_TIMEOUT = Duration.ofSeconds(30);
  /** Default {@link #backgroundNice}. */
  public static final int DEFAULT_BACKGROUND_NICE = 10;
  /** Default {@link #floodStage}: 95% of the pool, as Elasticsearch's flood-stage disk watermark. */
  public static final double DEFAULT_FLOOD_STAGE = 0.95;

  /**
   * Default {@link #mergeDeletesPctAllowed}: 20%, {@link
   * org.apache.lucene.index.TieredMergePolicy}'s default deletesPctAllowed. A merged segment then
   * carries at most a fifth of dead documents (room, and a bounded skew of the BM25 statistics,
   * which count deleted documents as Lucene's do), while the merges of segments with the few
   * deletions of an update-light workload keep every document and so can link postings.
   */
  public static final double DEFAULT_MERGE_DELETES_PCT_ALLOWED = 20;

  /** Validates the settings. */
  public RtEngineConfig {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(analyzer, "analyzer");
    Objects.requireNonNull(similarity, "similarity");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(statistics, "statistics");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(logFullTimeout, "logFullTimeout");
    if (statisticsLagSegments < 0) {
      throw new IllegalArgumentException(
          "statisticsLagSegments must be >= 0, got " + statisticsLagSegments);
    }
    if (cache.enabled() && statistics != StatisticsMode.PER_EPOCH) {
      throw new IllegalArgumentException(
          "the result cache needs statistics=PER_EPOCH (cached scores must not depend on the"
              + " live tail), got statistics=" + statistics);
    }
    if (segmentSize <= 0) {
      throw new IllegalArgumentException("segmentSize must be > 0, got " + segmentSize);
    }
    if (dramBudgetBytes < 0 || nvmBudgetBytes < 0) {
      throw new IllegalArgumentException("budgets must be >= 0");
    }
    if (mergeFactor < 2) {
      throw new IllegalArgumentException("mergeFactor must be >= 2, got " + mergeFactor);
    }
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be >= 1, got " + queueCapacity);
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("partition count must be >= 1, got " + partitions);
    }
    if (maxSegments < 3) {
      throw new IllegalArgumentException("maxSegments must be >= 3, got " + maxSegments);
    }
    if (logBytes < MIN_LOG_BYTES) {
      throw new IllegalArgumentException(
          "logBytes (ingest log size) must be >= " + MIN_LOG_BYTES + ", got " + logBytes);
    }
    requireBackgroundNice(backgroundNice);
    requireFloodStage(floodStage);
    if (!(mergeDeletesPctAllowed >= 0 && mergeDeletesPctAllowed <= 100)) {
      throw new IllegalArgumentException(
          "mergeDeletesPctAllowed must be in [0, 100], got " + mergeDeletesPctAllowed);
    }
    if (logFullTimeout.isNegative()) {
      throw new IllegalArgumentException("logFullTimeout must be >= 0, got " + logFullTimeout);
    }
    if (mode == DurabilityMode.CRASH_CONSISTENT && !policy.eagerEngrave()) {
      throw new IllegalArgumentException(
          "CRASH_CONSISTENT mode needs an eager-engrave policy (segments must reach NVM in order"
              + " so the ingest log can be reclaimed), got "
              + policy
              + "; use EAGER_ENGRAVE_LAZY_POINTER or EAGER_ENGRAVE_EAGER_POINTER");
    }
  }

  /** A configuration with all defaults for {@code schema}. */
  public static RtEngineConfig defaults(RtSchema schema) {
    return new RtEngineConfig(
        schema,
        new StandardAnalyzer(),
        new BM25Similarity(),
        Codec.getDefault(),
        DEFAULT_SEGMENT_SIZE,
        256L << 20,
        Long.MAX_VALUE,
        PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER,
        DurabilityMode.VOLATILE,
        10,
        DEFAULT_QUEUE_CAPACITY,
        1,
        10,
        StatisticsMode.PER_QUERY,
        0,
        ResultCacheSettings.DISABLED,
        DEFAULT_LOG_BYTES,
        DEFAULT_LOG_FULL_TIMEOUT,
        DEFAULT_BACKGROUND_NICE,
        DEFAULT_FLOOD_STAGE,
        DEFAULT_MERGE_DELETES_PCT_ALLOWED,
        false);
  }

  /** Selects the codec by its SPI name (e.g. {@code "Lucene104"}). */
  public RtEngineConfig withCodec(String codecName) {
    return withCodec(Codec.forName(codecName));
  }

  /** Returns a copy with another analyzer. */
  public RtEngineConfig withAnalyzer(Analyzer a) {
    Copy c = new Copy(this);
    c.analyzer = a;
    return c.build();
  }

  /** Returns a copy with another similarity (norms and scores). */
  public RtEngineConfig withSimilarity(Similarity s) {
    Copy c = new Copy(this);
    c.similarity = s;
    return c.build();
  }

  /** Returns a copy writing segments with {@code c}. */
  public RtEngineConfig withCodec(Codec codec) {
    Copy c = new Copy(this);
    c.codec = codec;
    return c.build();
  }

  /** Returns a copy with {@code docs} documents per live segment. */
  public RtEngineConfig withSegmentSize(int docs) {
    Copy c = new Copy(this);
    c.segmentSize = docs;
    return c.build();
  }

  /** Returns a copy with another DRAM budget for read-optimized segments (per partition). */
  public RtEngineConfig withDramBudgetBytes(long bytes) {
    Copy c = new Copy(this);
    c.dramBudgetBytes = bytes;
    return c.build();
  }

  /** Returns a copy with another NVM budget (per partition). */
  public RtEngineConfig withNvmBudgetBytes(long bytes) {
    Copy c = new Copy(this);
    c.nvmBudgetBytes = bytes;
    return c.build();
  }

  /** Returns a copy with another engrave / pointer-update policy. */
  public RtEngineConfig withPolicy(PipelinePolicy p) {
    Copy c = new Copy(this);
    c.policy = p;
    return c.build();
  }

  /** Returns a copy with another durability mode. */
  public RtEngineConfig withMode(DurabilityMode m) {
    Copy c = new Copy(this);
    c.mode = m;
    return c.build();
  }

  /** Returns a copy merging at most {@code factor} segments at a time. */
  public RtEngineConfig withMergeFactor(int factor) {
    Copy c = new Copy(this);
    c.mergeFactor = factor;
    return c.build();
  }

  /** Returns a copy with another flush queue capacity. */
  public RtEngineConfig withQueueCapacity(int capacity) {
    Copy c = new Copy(this);
    c.queueCapacity = capacity;
    return c.build();
  }

  /** Returns a copy with {@code count} document partitions. */
  public RtEngineConfig withPartitions(int count) {
    Copy c = new Copy(this);
    c.partitions = count;
    return c.build();
  }

  /** Returns a copy keeping at most about {@code count} segments per partition. */
  public RtEngineConfig withMaxSegments(int count) {
    Copy c = new Copy(this);
    c.maxSegments = count;
    return c.build();
  }

  /** Returns a copy scoring with {@code mode} statistics. */
  public RtEngineConfig withStatistics(StatisticsMode statisticsMode) {
    Copy c = new Copy(this);
    c.statistics = statisticsMode;
    return c.build();
  }

  /**
   * Returns a copy with result cache {@code settings}; an enabled cache also switches the
   * statistics to {@link StatisticsMode#PER_EPOCH}, which it needs.
   */
  public RtEngineConfig withResultCache(ResultCacheSettings settings) {
    Copy c = new Copy(this);
    c.cache = settings;
    if (settings.enabled()) {
      c.statistics = StatisticsMode.PER_EPOCH;
    }
    return c.build();
  }

  /**
   * Returns a copy whose statistics epoch leaves out up to {@code segments} new segments per
   * partition before advancing (see {@link #statisticsLagSegments()}).
   */
  public RtEngineConfig withStatisticsLagSegments(int segments) {
    Copy c = new Copy(this);
    c.statisticsLagSegments = segments;
    return c.build();
  }

  /** Returns a copy whose crash-consistent partitions each get an ingest log of {@code bytes}. */
  public RtEngineConfig withLogBytes(long bytes) {
    Copy c = new Copy(this);
    c.logBytes = bytes;
    return c.build();
  }

  /** Returns a copy in which a write waits at most {@code timeout} for room in a full ingest log. */
  public RtEngineConfig withLogFullTimeout(Duration timeout) {
    Copy c = new Copy(this);
    c.logFullTimeout = timeout;
    return c.build();
  }

  /**
   * Checks that {@code nice} can be a {@link #backgroundNice} (a Linux nice value, 0 to 19), for
   * settings that carry one to an engine (the server's).
   *
   * @throws IllegalArgumentException naming the setting and the range
   */
  public static void requireBackgroundNice(int nice) {
    if (nice < 0 || nice > 19) {
      throw new IllegalArgumentException(
          "backgroundNice must be in 0..19 (a Linux nice value), got " + nice);
    }
  }

  /**
   * Checks that {@code fraction} can be a {@link #floodStage} (in (0, 1]), for settings that carry
   * one to an engine (the server's).
   *
   * @throws IllegalArgumentException naming the setting and the range
   */
  public static void requireFloodStage(double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException(
          "floodStage must be a share of the pool in (0, 1] (e.g. 0.95 for 95%), got " + fraction);
    }
  }

  /** Returns a copy refusing adds and updates once {@code fraction} of the pool is used. */
  public RtEngineConfig withFloodStage(double fraction) {
    Copy c = new Copy(this);
    c.floodStage = fraction;
    return c.build();
  }

  /** Returns a copy whose indexer and merger threads run at nice value {@code nice}. */
  public RtEngineConfig withBackgroundNice(int nice) {
    Copy c = new Copy(this);
    c.backgroundNice = nice;
    return c.build();
  }

  /**
   * Returns a copy whose merges keep deleted documents (masked) while at most {@code pct} percent
   * of their sources' documents are deleted, and drop them above.
   */
  public RtEngineConfig withMergeDeletesPctAllowed(double pct) {
    Copy c = new Copy(this);
    c.mergeDeletesPctAllowed = pct;
    return c.build();
  }

  /** Returns a copy whose merges link postings ({@code true}, with {@code NvmCodec}) or copy them. */
  public RtEngineConfig withLinkedMerges(boolean linked) {
    Copy c = new Copy(this);
    c.linkedMerges = linked;
    return c.build();
  }

  /** A mutable copy of every setting: the one place that lists them all besides the record. */
  private static final class Copy {
    RtSchema schema;
    Analyzer analyzer;
    Similarity similarity;
    Codec codec;
    int segmentSize;
    long dramBudgetBytes;
    long nvmBudgetBytes;
    PipelinePolicy policy;
    DurabilityMode mode;
    int mergeFactor;
    int queueCapacity;
    int partitions;
    int maxSegments;
    StatisticsMode statistics;
    int statisticsLagSegments;
    ResultCacheSettings cache;
    long logBytes;
    Duration logFullTimeout;
    int backgroundNice;
    double floodStage;
    double mergeDeletesPctAllowed;
    boolean linkedMerges;

    Copy(RtEngineConfig from) {
      schema = from.schema;
      analyzer = from.analyzer;
      similarity = from.similarity;
      codec = from.codec;
      segmentSize = from.segmentSize;
      dramBudgetBytes = from.dramBudgetBytes;
      nvmBudgetBytes = from.nvmBudgetBytes;
      policy = from.policy;
      mode = from.mode;
      mergeFactor = from.mergeFactor;
      queueCapacity = from.queueCapacity;
      partitions = from.partitions;
      maxSegments = from.maxSegments;
      statistics = from.statistics;
      statisticsLagSegments = from.statisticsLagSegments;
      cache = from.cache;
      logBytes = from.logBytes;
      logFullTimeout = from.logFullTimeout;
      backgroundNice = from.backgroundNice;
      floodStage = from.floodStage;
      mergeDeletesPctAllowed = from.mergeDeletesPctAllowed;
      linkedMerges = from.linkedMerges;
    }

    RtEngineConfig build() {
      return new RtEngineConfig(
          schema,
          analyzer,
          similarity,
          codec,
          segmentSize,
          dramBudgetBytes,
          nvmBudgetBytes,
          policy,
          mode,
          mergeFactor,
          queueCapacity,
          partitions,
          maxSegments,
          statistics,
          statisticsLagSegments,
          cache,
          logBytes,
          logFullTimeout,
          backgroundNice,
          floodStage,
          mergeDeletesPctAllowed,
          linkedMerges);
    }
  }
}
