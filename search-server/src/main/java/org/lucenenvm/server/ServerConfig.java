package org.lucenenvm.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.codecs.Codec;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.realtime.RtSchema;
import org.lucenenvm.store.PoolGrowth;

/**
 * Settings of a {@link SearchServer}. Build one with {@link #builder()}; every setting has a safe
 * default (loopback only, no token, bounded bodies and concurrency, crash-consistent durability).
 *
 * @param host address to bind; {@code 127.0.0.1} unless told otherwise
 * @param port TCP port; 0 picks a free one (see {@link SearchServer#port()})
 * @param dataDir directory holding one pool file and one definition file per index
 * @param poolSizeBytes size of the NVM pool file of each index: a new one is created with it, an
 *     existing smaller one grows to it in place when it opens
 * @param poolMaxBytes the size each pool grows to while its index serves, by {@link
 *     PoolGrowth#upTo}'s steps when it runs short of room, always keeping {@link
 *     PoolGrowth#DEFAULT_FILE_SYSTEM_MARGIN_BYTES} of its file system usable: {@link
 *     PoolGrowth#UNBOUNDED} (the default) for no maximum but the file system's room, a size (at
 *     least {@code poolSizeBytes}) to cap it, or 0 for no growth while serving (a pool then grows
 *     only when it opens with a larger {@code poolSizeBytes}). The flood stage and the room
 *     promised to segment writes count what a pool can still grow by.
 * @param mode durability of every index (CRASH_CONSISTENT, the default: every acknowledged write
 *     survives a crash and a restart replays the ingest log; GRACEFUL: a restart after a graceful
 *     shutdown reopens the indexes from their pools, a crash leaves them unavailable; VOLATILE)
 * @param logBytes ingest log size of each partition in CRASH_CONSISTENT mode (taken from the
 *     index's pool)
 * @param logFullTimeout how long a write waits for room in a full ingest log before it is refused
 *     with 503 (retry later)
 * @param discardUnverifiable indexes whose unverifiable state (a crashed GRACEFUL engine's) is
 *     discarded at startup, so they open empty: the operator's explicit acceptance of the loss
 * @param dramBudgetBytes DRAM budget of each partition's read-optimized segments
 * @param segmentSize documents per live segment
 * @param codec codec SPI name of flushed and merged segments (e.g. {@code NvmCodec}, {@code
 *     Lucene104})
 * @param partitions default number of executors (document partitions) of a new index
 * @param backgroundNice Linux nice value (0 to 19) of every index's indexer and merger threads,
 *     so that flushes and merges yield the cores to requests ({@link
 *     RtEngineConfig#DEFAULT_BACKGROUND_NICE} by default; 0 runs them as requests run)
 * @param floodStage share of each index's pool at or above which adds and updates are refused
 *     with 429 while searches, gets and deletes go on ({@link RtEngineConfig#floodStage()}; {@link
 *     RtEngineConfig#DEFAULT_FLOOD_STAGE} by default)
 * @param defaultSchema schema of indexes created without one (null: a schema is required)
 * @param maxConcurrentRequests requests handled at once; more are refused with 503
 * @param maxBodyBytes largest request body accepted (413 beyond)
 * @param maxDocumentBytes largest single document (one NDJSON line or one document body)
 * @param maxResults largest {@code k} a search may ask for
 * @param authToken bearer token required by write endpoints (null: no token required)
 * @param queryLimits bounds on the cost of one search
 * @param cache the result cache of every index ({@link ResultCacheSettings#DISABLED} by default;
 *     an NVM-tier cache takes its region from each index's pool)
 */
public record ServerConfig(
    String host,
    int port,
    Path dataDir,
    long poolSizeBytes,
    long poolMaxBytes,
    DurabilityMode mode,
    long logBytes,
    Duration logFullTimeout,
    Set<String> discardUnverifiable,
    long dramBudgetBytes,
    int segmentSize,
    String codec,
    int partitions,
    int backgroundNice,
    double floodStage,
    RtSchema defaultSchema,
    int maxConcurrentRequests,
    long maxBodyBytes,
    int maxDocumentBytes,
    int maxResults,
    String authToken,
    QueryLimits queryLimits,
    ResultCacheSettings cache) {

  /** Validates every setting, naming the one that is wrong. */
  public ServerConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(logFullTimeout, "logFullTimeout");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(queryLimits, "queryLimits");
    Objects.requireNonNull(cache, "cache");
    discardUnverifiable = Set.copyOf(discardUnverifiable);
    require(
        logBytes >= RtEngineConfig.MIN_LOG_BYTES,
        "logBytes must be >= " + RtEngineConfig.MIN_LOG_BYTES + ", got " + logBytes);
    require(!logFullTimeout.isNegative(), "logFullTimeout must be >= 0, got " + logFullTimeout);
    require(port >= 0 && port <= 65535, "port must be in 0..65535, got " + port);
    require(poolSizeBytes >= 1L << 20, "poolSizeBytes must be >= 1 MiB, got " + poolSizeBytes);
    require(
        poolMaxBytes == 0 || poolMaxBytes >= poolSizeBytes,
        "poolMaxBytes must be 0 (no growth while serving), PoolGrowth.UNBOUNDED or >= poolSizeBytes ("
            + poolSizeBytes
            + "), got "
            + poolMaxBytes);
    require(dramBudgetBytes >= 0, "dramBudgetBytes must be >= 0, got " + dramBudgetBytes);
    require(segmentSize > 0, "segmentSize must be > 0, got " + segmentSize);
    RtEngineConfig.requireFloodStage(floodStage);
    require(partitions >= 1, "partitions must be >= 1, got " + partitions);
    RtEngineConfig.requireBackgroundNice(backgroundNice);
    require(maxConcurrentRequests >= 1, "maxConcurrentRequests must be >= 1");
    require(maxBodyBytes >= 1024, "maxBodyBytes must be >= 1024, got " + maxBodyBytes);
    require(maxDocumentBytes >= 64, "maxDocumentBytes must be >= 64, got " + maxDocumentBytes);
    require(maxResults >= 1, "maxResults must be >= 1, got " + maxResults);
    require(authToken == null || !authToken.isBlank(), "authToken must not be blank");
    requirePoolRoom(poolSizeBytes, mode, logBytes, partitions, cache);
    if (!Codec.availableCodecs().contains(codec)) {
      throw new IllegalArgumentException(
          "unknown codec '" + codec + "'; available: " + Codec.availableCodecs());
    }
  }

  /**
   * The ingest logs (CRASH_CONSISTENT mode) and an NVM-tier result cache both take their room from
   * each index's pool: together they may take at most half of it, so segments keep the rest.
   */
  private static void requirePoolRoom(
      long poolSizeBytes, DurabilityMode mode, long logBytes, int partitions, ResultCacheSettings cache) {
    long logs = mode == DurabilityMode.CRASH_CONSISTENT ? Math.multiplyExact(logBytes, partitions) : 0;
    long nvmCache =
        cache.enabled() && cache.tier() == ResultCacheSettings.Tier.NVM ? cache.bytes() : 0;
    long taken = Math.addExact(logs, nvmCache);
    require(
        taken <= poolSizeBytes / 2,
        "the ingest logs ("
            + logs
            + " bytes: log size "
            + logBytes
            + " x "
            + partitions
            + " partition(s)"
            + (mode == DurabilityMode.CRASH_CONSISTENT ? "" : ", none in " + mode + " mode")
            + ") and the NVM result cache ("
            + nvmCache
            + " bytes"
            + (nvmCache == 0 ? ", none configured" : "")
            + ") take "
            + taken
            + " bytes of each index's pool; together they must take at most half the pool size "
            + poolSizeBytes
            + ": lower --log-size or --cache-size, or raise --pool-size");
  }

  /**
   * Checks that an index with {@code indexPartitions} partitions leaves its segments at least half
   * of its pool (ingest logs and NVM cache included), naming the sizes when it does not.
   *
   * @throws IllegalArgumentException if the logs and the cache would take more than half the pool
   */
  public void requirePoolRoom(int indexPartitions) {
    requirePoolRoom(poolSizeBytes, mode, logBytes, indexPartitions, cache);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  /**
   * How each index's pool grows while it serves: up to {@link #poolMaxBytes} ({@link
   * PoolGrowth#unbounded()} by default), {@link PoolGrowth#OFF} if it is 0.
   */
  public PoolGrowth poolGrowth() {
    return poolMaxBytes == 0 ? PoolGrowth.OFF : PoolGrowth.upTo(poolMaxBytes);
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's settings, to derive a configuration that differs in a few. */
  public Builder toBuilder() {
    return new Builder()
        .host(host)
        .port(port)
        .dataDir(dataDir)
        .poolSizeBytes(poolSizeBytes)
        .poolMaxBytes(poolMaxBytes)
        .mode(mode)
        .logBytes(logBytes)
        .logFullTimeout(logFullTimeout)
        .discardUnverifiable(discardUnverifiable)
        .dramBudgetBytes(dramBudgetBytes)
        .segmentSize(segmentSize)
        .codec(codec)
        .partitions(partitions)
        .backgroundNice(backgroundNice)
        .floodStage(floodStage)
        .defaultSchema(defaultSchema)
        .maxConcurrentRequests(maxConcurrentRequests)
        .maxBodyBytes(maxBodyBytes)
        .maxDocumentBytes(maxDocumentBytes)
        .maxResults(maxResults)
        .authToken(authToken)
        .queryLimits(queryLimits)
        .cache(cache);
  }

  /** Whether {@link #host} is a loopback address. */
  public boolean bindsLoopbackOnly() {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Builds a {@link ServerConfig}; see the record components for the meaning of each setting. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 8080;
    private Path dataDir = Path.of("data");
    private long poolSizeBytes = 512L << 20;
    private long poolMaxBytes = PoolGrowth.UNBOUNDED;
    private DurabilityMode mode = DurabilityMode.CRASH_CONSISTENT;
    private long logBytes = 64L << 20;
    private Duration logFullTimeout = RtEngineConfig.DEFAULT_LOG_FULL_TIMEOUT;
    private Set<String> discardUnverifiable = Set.of();
    private long dramBudgetBytes = 64L << 20;
    private int segmentSize = RtEngineConfig.DEFAULT_SEGMENT_SIZE;
    private String codec = "Lucene104";
    private int partitions = 1;
    private int backgroundNice = RtEngineConfig.DEFAULT_BACKGROUND_NICE;
    private double floodStage = RtEngineConfig.DEFAULT_FLOOD_STAGE;
    private RtSchema defaultSchema;
    private int maxConcurrentRequests = 32;
    private long maxBodyBytes = 16L << 20;
    private int maxDocumentBytes = 1 << 20;
    private int maxResults = 1000;
    private String authToken;
    private QueryLimits queryLimits = QueryLimits.DEFAULTS;
    private ResultCacheSettings cache = ResultCacheSettings.DISABLED;

    private Builder() {}

    public Builder host(String v) {
      host = v;
      return this;
    }

    public Builder port(int v) {
      port = v;
      return this;
    }

    public Builder dataDir(Path v) {
      dataDir = v;
      return this;
    }

    public Builder poolSizeBytes(long v) {
      poolSizeBytes = v;
      return this;
    }

    public Builder poolMaxBytes(long v) {
      poolMaxBytes = v;
      return this;
    }

    public Builder mode(DurabilityMode v) {
      mode = v;
      return this;
    }

    public Builder logBytes(long v) {
      logBytes = v;
      return this;
    }

    public Builder logFullTimeout(Duration v) {
      logFullTimeout = v;
      return this;
    }

    public Builder discardUnverifiable(Set<String> v) {
      discardUnverifiable = v;
      return this;
    }

    public Builder dramBudgetBytes(long v) {
      dramBudgetBytes = v;
      return this;
    }

    public Builder segmentSize(int v) {
      segmentSize = v;
      return this;
    }

    public Builder codec(String v) {
      codec = v;
      return this;
    }

    public Builder partitions(int v) {
      partitions = v;
      return this;
    }

    public Builder backgroundNice(int v) {
      backgroundNice = v;
      return this;
    }

    public Builder floodStage(double v) {
      floodStage = v;
      return this;
    }

    public Builder defaultSchema(RtSchema v) {
      defaultSchema = v;
      return this;
    }

    public Builder maxConcurrentRequests(int v) {
      maxConcurrentRequests = v;
      return this;
    }

    public Builder maxBodyBytes(long v) {
      maxBodyBytes = v;
      return this;
    }

    public Builder maxDocumentBytes(int v) {
      maxDocumentBytes = v;
      return this;
    }

    public Builder maxResults(int v) {
      maxResults = v;
      return this;
    }

    public Builder authToken(String v) {
      authToken = v;
      return this;
    }

    public Builder queryLimits(QueryLimits v) {
      queryLimits = v;
      return this;
    }

    public Builder cache(ResultCacheSettings v) {
      cache = v;
      return this;
    }

    /** The validated configuration. */
    public ServerConfig build() {
      return new ServerConfig(
          host,
          port,
          dataDir,
          poolSizeBytes,
          poolMaxBytes,
          mode,
          logBytes,
          logFullTimeout,
          discardUnverifiable,
          dramBudgetBytes,
          segmentSize,
          codec,
          partitions,
          backgroundNice,
          floodStage,
          defaultSchema,
          maxConcurrentRequests,
          maxBodyBytes,
          maxDocumentBytes,
          maxResults,
          authToken,
          queryLimits,
          cache);
    }
  }
}
