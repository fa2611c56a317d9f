package org.lucenenvm.realtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;

/**
 * Settings of an {@link RtEngine}. Defaults: {@link StandardAnalyzer}, {@link BM25Similarity},
 * {@link Codec#getDefault()} (Lucene104), 10,000-doc segments, 256 MiB DRAM budget, unlimited NVM
 * budget, {@link PipelinePolicy#EAGER_ENGRAVE_LAZY_POINTER}, {@link DurabilityMode#VOLATILE},
 * merges of at most 10 segments, at most 10 segments per partition, a flush queue of 4 segments,
 * one partition, DRAM copies under {@code /dev/shm} (or {@code java.io.tmpdir} where there is none),
 * a 128 MiB ingest log per partition (crash-consistent mode only) and a 30 s wait for room in it.
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
 * @param dramPath directory (on a memory file system) under which the DRAM tier keeps its files
 * @param logBytes record area of each partition's ingest log in {@link
 *     DurabilityMode#CRASH_CONSISTENT} mode (an existing log keeps the size it was created with);
 *     the live segment is handed to the pipeline early once its operations take a {@code
 *     (queueCapacity + 2)}-th of it, so the log holds at most the segments the pipeline can queue
 * @param logFullTimeout how long a write waits for room in a full ingest log before it fails with
 *     {@link IngestLogFullException}
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
    Path dramPath,
    long logBytes,
    Duration logFullTimeout) {
  /** Default {@link #logBytes}: 128 MiB per partition. */
  public static final long DEFAULT_LOG_BYTES = 128L << 20;
  /** Smallest {@link #logBytes}: 64 KiB. */
  public static final long MIN_LOG_BYTES = 64L << 10;
  /** Default {@link #logFullTimeout}: 30 s. */
  public static final Duration DEFAULT_LOG_FULL_TIMEOUT = Duration.ofSeconds(30);

  /** Validates the settings. */
  public RtEngineConfig {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(analyzer, "analyzer");
    Objects.requireNonNull(similarity, "similarity");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(dramPath, "dramPath");
    Objects.requireNonNull(logFullTimeout, "logFullTimeout");
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
        10_000,
        256L << 20,
        Long.MAX_VALUE,
        PipelinePolicy.EAGER_ENGRAVE_LAZY_POINTER,
        DurabilityMode.VOLATILE,
        10,
        4,
        1,
        10,
        defaultDramPath(),
        DEFAULT_LOG_BYTES,
        DEFAULT_LOG_FULL_TIMEOUT);
  }

  /** {@code /dev/shm} where it is a writable directory, else {@code java.io.tmpdir}. */
  static Path defaultDramPath() {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm)
        ? shm
        : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** Selects the codec by its SPI name (e.g. {@code "Lucene104"}). */
  public RtEngineConfig withCodec(String codecName) {
    return withCodec(Codec.forName(codecName));
  }

  /** Returns a copy with another analyzer. */
  public RtEngineConfig withAnalyzer(Analyzer a) {
    return new RtEngineConfig(
        schema,
        a,
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
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another similarity (norms and scores). */
  public RtEngineConfig withSimilarity(Similarity s) {
    return new RtEngineConfig(
        schema,
        analyzer,
        s,
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
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy writing segments with {@code c}. */
  public RtEngineConfig withCodec(Codec c) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        c,
        segmentSize,
        dramBudgetBytes,
        nvmBudgetBytes,
        policy,
        mode,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with {@code docs} documents per live segment. */
  public RtEngineConfig withSegmentSize(int docs) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        codec,
        docs,
        dramBudgetBytes,
        nvmBudgetBytes,
        policy,
        mode,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another DRAM budget for read-optimized segments (per partition). */
  public RtEngineConfig withDramBudgetBytes(long bytes) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        codec,
        segmentSize,
        bytes,
        nvmBudgetBytes,
        policy,
        mode,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another NVM budget (per partition). */
  public RtEngineConfig withNvmBudgetBytes(long bytes) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        codec,
        segmentSize,
        dramBudgetBytes,
        bytes,
        policy,
        mode,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another engrave / pointer-update policy. */
  public RtEngineConfig withPolicy(PipelinePolicy p) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        codec,
        segmentSize,
        dramBudgetBytes,
        nvmBudgetBytes,
        p,
        mode,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another durability mode. */
  public RtEngineConfig withMode(DurabilityMode m) {
    return new RtEngineConfig(
        schema,
        analyzer,
        similarity,
        codec,
        segmentSize,
        dramBudgetBytes,
        nvmBudgetBytes,
        policy,
        m,
        mergeFactor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy merging at most {@code factor} segments at a time. */
  public RtEngineConfig withMergeFactor(int factor) {
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
        factor,
        queueCapacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with another flush queue capacity. */
  public RtEngineConfig withQueueCapacity(int capacity) {
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
        capacity,
        partitions,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy with {@code count} document partitions. */
  public RtEngineConfig withPartitions(int count) {
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
        count,
        maxSegments,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy keeping at most about {@code count} segments per partition. */
  public RtEngineConfig withMaxSegments(int count) {
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
        count,
        dramPath,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy keeping DRAM segment copies under {@code path} (a memory file system). */
  public RtEngineConfig withDramPath(Path path) {
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
        path,
        logBytes,
        logFullTimeout);
  }

  /** Returns a copy whose crash-consistent partitions each get an ingest log of {@code bytes}. */
  public RtEngineConfig withLogBytes(long bytes) {
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
        dramPath,
        bytes,
        logFullTimeout);
  }

  /** Returns a copy in which a write waits at most {@code timeout} for room in a full ingest log. */
  public RtEngineConfig withLogFullTimeout(Duration timeout) {
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
        dramPath,
        logBytes,
        timeout);
  }
}
