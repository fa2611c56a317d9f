package org.lucenenvm.bench;

import java.util.Locale;
import java.util.Objects;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.PipelinePolicy;
import org.lucenenvm.realtime.RtEngineConfig;

/**
 * How a WRT run configures the real-time engine ({@code org.lucenenvm.realtime.RtEngine}).
 *
 * @param mode durability mode
 * @param policy engrave / pointer-update policy
 * @param codec codec SPI name the engine writes its read-optimized segments with
 * @param segmentSize documents per live segment
 * @param dramBudgetBytes DRAM budget of read-optimized segments
 * @param poolBytes size of the NVM pool the engine's {@code NvmDirectory} lives in
 * @param partitions document partitions of the engine (SPIRIT's executors)
 * @param cache the engine's result cache
 * @param statisticsLag new segments per partition the statistics epoch may leave out ({@code
 *     RtEngineConfig.statisticsLagSegments}; 0: every flush ends it)
 * @param maxSegments segments per partition the engine's merger keeps the table within ({@code
 *     RtEngineConfig.maxSegments}, fewer leaves per query); {@value #DEFAULT_MAX_SEGMENTS}: the engine's default
 * @param backgroundNice nice value of the engine's indexer and merger threads ({@code
 *     RtEngineConfig.backgroundNice})
 * @param queueCapacity full live segments that may wait for their flush ({@code
 *     RtEngineConfig.queueCapacity}); {@value #DEFAULT_QUEUE_CAPACITY}: the engine's default
 */
public record EngineSettings(
    DurabilityMode mode, PipelinePolicy policy, String codec, int segmentSize, long dramBudgetBytes, long poolBytes,
    int partitions, RtCache cache, int statisticsLag, int maxSegments, int backgroundNice, int queueCapacity) {

  /** The default codec of the engine's segments: Lucene104, faster than NvmCodec inside the engine (benchmarks/results/wrt-1m-codec). */
  public static final String DEFAULT_CODEC = "Lucene104";

  /** {@link #maxSegments()} that keeps the engine's own default. */
  public static final int DEFAULT_MAX_SEGMENTS = 0;

  /** {@link #queueCapacity()} that keeps the engine's own default. */
  public static final int DEFAULT_QUEUE_CAPACITY = 0;

  /** Checks the ranges. */
  public EngineSettings {
    Objects.requireNonNull(cache, "cache");
    if (segmentSize < 1 || dramBudgetBytes < 0 || poolBytes < 1 || partitions < 1 || statisticsLag < 0 || maxSegments < 0
        || queueCapacity < 0) {
      throw new IllegalArgumentException(
          "segment size, pool size and partitions must be >= 1, DRAM budget, statistics lag, max segments and queue capacity >= 0");
    }
  }

  /**
   * Parses {@code <mode>-<engrave>-<pointer>}, e.g. {@code volatile-eager-lazy}, {@code
   * crash-eager-lazy} or {@code graceful-lazy-lazy}: mode {@code volatile}, {@code graceful} or
   * {@code crash} ({@link DurabilityMode#CRASH_CONSISTENT}, eager engrave only); engrave and
   * pointer update {@code eager} or {@code lazy}, as in {@link PipelinePolicy}.
   */
  public static EngineSettings parse(String text, String codec, int segmentSize, long dramBudgetBytes, long poolBytes,
      int partitions) {
    String[] parts = text.strip().toLowerCase(Locale.ROOT).split("-");
    if (parts.length != 3) {
      throw new IllegalArgumentException("bad engine setting '" + text + "': use <volatile|graceful|crash>-<eager|lazy>-<eager|lazy>, e.g. volatile-eager-lazy");
    }
    DurabilityMode mode = switch (parts[0]) {
      case "volatile" -> DurabilityMode.VOLATILE;
      case "graceful" -> DurabilityMode.GRACEFUL;
      case "crash" -> DurabilityMode.CRASH_CONSISTENT;
      default -> throw new IllegalArgumentException("bad engine mode '" + parts[0] + "' in '" + text + "': use volatile, graceful or crash");
    };
    for (PipelinePolicy p : PipelinePolicy.values()) {
      if (word(p.eagerEngrave()).equals(parts[1]) && word(p.eagerPointer()).equals(parts[2])) {
        return new EngineSettings(mode, p, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, RtCache.OFF, 0, DEFAULT_MAX_SEGMENTS,
            RtEngineConfig.DEFAULT_BACKGROUND_NICE, DEFAULT_QUEUE_CAPACITY);
      }
    }
    throw new IllegalArgumentException("bad engine policy '" + parts[1] + "-" + parts[2] + "' in '" + text + "': use eager-lazy, eager-eager or lazy-lazy");
  }

  /** These settings with result cache {@code c}. */
  public EngineSettings withCache(RtCache c) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, c, statisticsLag, maxSegments, backgroundNice, queueCapacity);
  }

  /** These settings with a statistics epoch that leaves out up to {@code segments} new segments. */
  public EngineSettings withStatisticsLag(int segments) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, cache, segments, maxSegments, backgroundNice, queueCapacity);
  }

  /** These settings with the engine keeping at most about {@code segments} segments per partition. */
  public EngineSettings withMaxSegments(int segments) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, cache, statisticsLag, segments, backgroundNice, queueCapacity);
  }

  /** These settings with the engine's background threads at nice value {@code nice}. */
  public EngineSettings withBackgroundNice(int nice) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, cache, statisticsLag, maxSegments, nice, queueCapacity);
  }

  /** These settings with at most {@code segments} full live segments waiting for their flush. */
  public EngineSettings withQueueCapacity(int segments) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, cache, statisticsLag, maxSegments,
        backgroundNice, segments);
  }

  /**
   * {@code RT-<mode>-<engrave>-<pointer>}, plus {@code -<codec>} when not the default codec, {@code -p<N>}
   * with more than one partition, {@code -cache-<spec>} with a result cache, {@code -lag<N>} with a
   * statistics lag, {@code -maxseg<M>} with a segment limit, {@code -queue<Q>} with a flush queue capacity and {@code -nice<N>} with a background nice value that is not the
   * engine's default.
   */
  public String label() {
    String modeWord = mode == DurabilityMode.CRASH_CONSISTENT ? "crash" : mode.name().toLowerCase(Locale.ROOT);
    String base = "RT-" + modeWord + "-" + word(policy.eagerEngrave()) + "-" + word(policy.eagerPointer());
    String withCodec = codec.equals(DEFAULT_CODEC) ? base : base + "-" + codec;
    return (partitions == 1 ? withCodec : withCodec + "-p" + partitions) + cache.labelSuffix()
        + (statisticsLag == 0 ? "" : "-lag" + statisticsLag) + (maxSegments == DEFAULT_MAX_SEGMENTS ? "" : "-maxseg" + maxSegments)
        + (queueCapacity == DEFAULT_QUEUE_CAPACITY ? "" : "-queue" + queueCapacity)
        + (backgroundNice == RtEngineConfig.DEFAULT_BACKGROUND_NICE ? "" : "-nice" + backgroundNice);
  }

  private static String word(boolean eager) {
    return eager ? "eager" : "lazy";
  }
}
