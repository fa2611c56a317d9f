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
 * @param tuning the engine's pipeline knobs the runner can set ({@link Tuning#DEFAULTS}: the engine's own)
 */
public record EngineSettings(
    DurabilityMode mode, PipelinePolicy policy, String codec, int segmentSize, long dramBudgetBytes, long poolBytes,
    int partitions, RtCache cache, Tuning tuning) {

  /** The default codec of the engine's segments: Lucene104, faster than NvmCodec inside the engine on the 1 M-document real-time benchmark. */
  public static final String DEFAULT_CODEC = "Lucene104";

  /**
   * The engine's pipeline knobs a run may change; each value that keeps the engine's default leaves
   * the engine's configuration and the row's label as they are.
   *
   * @param statisticsLag new segments per partition the statistics epoch may leave out ({@code
   *     RtEngineConfig.statisticsLagSegments}; 0: every flush ends it)
   * @param maxSegments segments per partition the engine's merger keeps the table within ({@code
   *     RtEngineConfig.maxSegments}, fewer leaves per query); {@value #ENGINE_DEFAULT}: the engine's default
   * @param queueCapacity full live segments that may wait for their flush ({@code
   *     RtEngineConfig.queueCapacity}); {@value #ENGINE_DEFAULT}: the engine's default
   * @param backgroundNice nice value of the engine's indexer and merger threads ({@code
   *     RtEngineConfig.backgroundNice})
   */
  public record Tuning(int statisticsLag, int maxSegments, int queueCapacity, int backgroundNice) {
    /** {@link #maxSegments} or {@link #queueCapacity} that keeps the engine's own default. */
    public static final int ENGINE_DEFAULT = 0;

    /** The engine's own defaults. */
    public static final Tuning DEFAULTS = new Tuning(0, ENGINE_DEFAULT, ENGINE_DEFAULT, RtEngineConfig.DEFAULT_BACKGROUND_NICE);

    /** Checks the ranges the runner can check (the engine checks the rest when it is configured). */
    public Tuning {
      if (statisticsLag < 0 || maxSegments < 0 || queueCapacity < 0) {
        throw new IllegalArgumentException("statistics lag, max segments and queue capacity must be >= 0");
      }
    }

    /** With a statistics epoch that leaves out up to {@code segments} new segments. */
    public Tuning withStatisticsLag(int segments) {
      return new Tuning(segments, maxSegments, queueCapacity, backgroundNice);
    }

    /** With the engine keeping at most about {@code segments} segments per partition. */
    public Tuning withMaxSegments(int segments) {
      return new Tuning(statisticsLag, segments, queueCapacity, backgroundNice);
    }

    /** With at most {@code segments} full live segments waiting for their flush. */
    public Tuning withQueueCapacity(int segments) {
      return new Tuning(statisticsLag, maxSegments, segments, backgroundNice);
    }

    /** With the engine's background threads at nice value {@code nice}. */
    public Tuning withBackgroundNice(int nice) {
      return new Tuning(statisticsLag, maxSegments, queueCapacity, nice);
    }

    /** {@code config} with these knobs (those at {@link #ENGINE_DEFAULT} left as {@code config} has them). */
    RtEngineConfig applyTo(RtEngineConfig config) {
      RtEngineConfig tuned = config.withStatisticsLagSegments(statisticsLag).withBackgroundNice(backgroundNice);
      if (maxSegments != ENGINE_DEFAULT) {
        tuned = tuned.withMaxSegments(maxSegments);
      }
      return queueCapacity == ENGINE_DEFAULT ? tuned : tuned.withQueueCapacity(queueCapacity);
    }

    /** {@code -lag<N>}, {@code -maxseg<M>}, {@code -queue<Q>}, {@code -nice<N>} for each knob away from its default. */
    String labelSuffix() {
      return (statisticsLag == DEFAULTS.statisticsLag ? "" : "-lag" + statisticsLag)
          + (maxSegments == ENGINE_DEFAULT ? "" : "-maxseg" + maxSegments)
          + (queueCapacity == ENGINE_DEFAULT ? "" : "-queue" + queueCapacity)
          + (backgroundNice == DEFAULTS.backgroundNice ? "" : "-nice" + backgroundNice);
    }
  }

  /** Checks the ranges. */
  public EngineSettings {
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(tuning, "tuning");
    if (segmentSize < 1 || dramBudgetBytes < 0 || poolBytes < 1 || partitions < 1) {
      throw new IllegalArgumentException("segment size, pool size and partitions must be >= 1, DRAM budget >= 0");
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
        return new EngineSettings(mode, p, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, RtCache.OFF, Tuning.DEFAULTS);
      }
    }
    throw new IllegalArgumentException("bad engine policy '" + parts[1] + "-" + parts[2] + "' in '" + text + "': use eager-lazy, eager-eager or lazy-lazy");
  }

  /** These settings with result cache {@code c}. */
  public EngineSettings withCache(RtCache c) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, c, tuning);
  }

  /** These settings with the engine's pipeline knobs {@code t}. */
  public EngineSettings withTuning(Tuning t) {
    return new EngineSettings(mode, policy, codec, segmentSize, dramBudgetBytes, poolBytes, partitions, cache, t);
  }

  /**
   * {@code RT-<mode>-<engrave>-<pointer>}, plus {@code -<codec>} when not the default codec, {@code -p<N>}
   * with more than one partition, {@code -cache-<spec>} with a result cache and {@link Tuning}'s
   * suffixes for the knobs away from the engine's defaults.
   */
  public String label() {
    String modeWord = mode == DurabilityMode.CRASH_CONSISTENT ? "crash" : mode.name().toLowerCase(Locale.ROOT);
    String base = "RT-" + modeWord + "-" + word(policy.eagerEngrave()) + "-" + word(policy.eagerPointer());
    String withCodec = codec.equals(DEFAULT_CODEC) ? base : base + "-" + codec;
    return (partitions == 1 ? withCodec : withCodec + "-p" + partitions) + cache.labelSuffix() + tuning.labelSuffix();
  }

  private static String word(boolean eager) {
    return eager ? "eager" : "lazy";
  }
}
