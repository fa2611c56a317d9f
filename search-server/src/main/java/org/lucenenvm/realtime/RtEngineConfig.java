package org.lucenenvm.realtime;

import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;

/**
 * Settings of an {@link RtEngine}. Defaults: {@link StandardAnalyzer}, {@link BM25Similarity},
 * {@link Codec#getDefault()}, 10,000-doc segments, 256 MiB DRAM budget, unlimited NVM budget,
 * {@link PipelinePolicy#EAGER_ENGRAVE_LAZY_POINTER}, {@link DurabilityMode#VOLATILE}, merge factor
 * 8, stage queues of 4 segments.
 *
 * @param schema the fields documents may carry
 * @param analyzer analyzer for {@link FieldKind#TEXT} fields (also used for nothing else)
 * @param similarity computes norms at indexing and scores at search
 * @param codec codec of flushed and merged segments
 * @param segmentSize documents per live segment (flush threshold)
 * @param dramBudgetBytes bytes of read-optimized segments kept in DRAM before committing to NVM
 * @param nvmBudgetBytes bytes of segment files allowed in the NVM directory
 * @param policy engrave / pointer-update policy
 * @param mode durability mode
 * @param mergeFactor number of committed segments of one level merged together
 * @param queueCapacity capacity of the flush and engrave queues
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
    int queueCapacity) {

  /** Validates the settings. */
  public RtEngineConfig {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(analyzer, "analyzer");
    Objects.requireNonNull(similarity, "similarity");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(mode, "mode");
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
        8,
        4);
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
        queueCapacity);
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
        queueCapacity);
  }

  /** Selects the codec by its SPI name (e.g. {@code "Lucene104"}). */
  public RtEngineConfig withCodec(String codecName) {
    return withCodec(Codec.forName(codecName));
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
        queueCapacity);
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
        queueCapacity);
  }

  /** Returns a copy with another DRAM budget for read-optimized segments. */
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
        queueCapacity);
  }

  /** Returns a copy with another NVM budget. */
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
        queueCapacity);
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
        queueCapacity);
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
        queueCapacity);
  }

  /** Returns a copy merging {@code factor} segments at a time. */
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
        queueCapacity);
  }

  /** Returns a copy with another flush / engrave queue capacity. */
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
        capacity);
  }
}
