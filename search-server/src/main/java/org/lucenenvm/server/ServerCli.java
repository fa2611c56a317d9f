package org.lucenenvm.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngineConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code search-server} command: starts a {@link SearchServer} and serves until SIGTERM or
 * Ctrl-C, then shuts down gracefully. Every setting can come from a config file ({@code --config},
 * Java properties keyed by the long option name without dashes, e.g. {@code data-dir=./data}) and
 * be overridden on the command line.
 */
@Command(
    name = "search-server",
    mixinStandardHelpOptions = true,
    description = "lucene-nvm search server: an HTTP JSON API over real-time engines on NVM pools.",
    footer = {
      "",
      "Result cache: off unless --cache-size > 0 (no measurement yet shows that its misses cost",
      "little enough). With it, an index's queries score with the statistics of its Lucene segments",
      "(the epoch) while those hold at least as many documents as the live tail, else with exact",
      "ones and uncached; see search-server/README.md."
    })
public final class ServerCli implements Callable<Integer> {
  @Option(names = "--config", description = "Properties file with default settings (keys: long option names without dashes).")
  Path config;

  @Option(names = "--host", description = "Address to bind (default: ${DEFAULT-VALUE}, loopback only).", defaultValue = "127.0.0.1")
  String host;

  @Option(names = "--port", description = "TCP port, 0 for any free port (default: ${DEFAULT-VALUE}).", defaultValue = "8080")
  int port;

  @Option(names = "--data-dir", description = "Directory of the index pool files (default: ${DEFAULT-VALUE}).", defaultValue = "data")
  Path dataDir;

  @Option(names = "--pool-size", converter = ByteSize.class, description = "NVM pool size of each index, e.g. 1g: new pools are created with it, smaller existing ones grow to it in place (default: ${DEFAULT-VALUE}).", defaultValue = "512m")
  long poolSize;

  @Option(names = "--pool-max-size", converter = PoolMaxSize.class, description = "Largest size each index's pool grows to while it serves, e.g. 8g, or unbounded: no maximum but the file system's room. A pool grows by steps of 64 MiB once less than 10%% of it is free or an allocation finds no room, always keeping 512 MiB of its file system free; the flood stage (--flood-stage) counts the room it can still grow by. 0 grows pools only when --pool-size is raised at a restart (default: ${DEFAULT-VALUE}).", defaultValue = PoolMaxSize.UNBOUNDED)
  long poolMaxSize;

  @Option(names = "--mode", description = "Durability: CRASH_CONSISTENT (every acknowledged write survives a crash), GRACEFUL (survives a graceful shutdown only) or VOLATILE (default: ${DEFAULT-VALUE}).", defaultValue = "CRASH_CONSISTENT")
  DurabilityMode mode;

  @Option(names = "--log-size", converter = ByteSize.class, description = "CRASH_CONSISTENT mode: ingest log of each partition, taken from the index's pool; a write waits (then fails) while it is full (default: ${DEFAULT-VALUE}).", defaultValue = "64m")
  long logSize;

  @Option(names = "--log-full-timeout", converter = TimeSpan.class, description = "CRASH_CONSISTENT mode: how long a write waits for room in a full ingest log before it is refused with 503 (retry later) (default: ${DEFAULT-VALUE}).", defaultValue = "30s")
  Duration logFullTimeout;

  @Option(names = "--discard-unverifiable", paramLabel = "<index>", description = "Starts index <index> empty, discarding what a crash in GRACEFUL mode left (its unavailability message names this option); repeatable.")
  Set<String> discardUnverifiable = new LinkedHashSet<>();

  @Option(names = "--dram-budget", converter = ByteSize.class, description = "DRAM budget of each partition's flushed segments (default: ${DEFAULT-VALUE}).", defaultValue = "64m")
  long dramBudget;

  @Option(names = "--segment-size", description = "Documents per live segment (default: ${DEFAULT-VALUE}).", defaultValue = "" + RtEngineConfig.DEFAULT_SEGMENT_SIZE)
  int segmentSize;

  @Option(names = "--codec", description = "Codec of flushed segments: NvmCodec (uncompressed postings in place) or Lucene104 (default: ${DEFAULT-VALUE}).", defaultValue = "Lucene104")
  String codec;

  @Option(names = "--partitions", description = "Default executors (document partitions) per new index (default: ${DEFAULT-VALUE}).", defaultValue = "1")
  int partitions;

  @Option(names = "--background-nice", description = "Linux nice value (0-19) of each index's flush and merge threads, so that they yield the cores to requests; 0 runs them at the requests' priority (default: ${DEFAULT-VALUE}).", defaultValue = "" + RtEngineConfig.DEFAULT_BACKGROUND_NICE)
  int backgroundNice;

  @Option(names = "--flood-stage", converter = PoolShare.class, description = "Share of the size each index's pool can reach (its size plus what it can still grow by) at or above which adds and updates are refused with 429 (searches, gets and deletes go on), e.g. 95%% or 0.95 (default: 95%%).", defaultValue = "95%")
  double floodStage;

  @Option(names = "--schema", description = "Default schema of new indexes, e.g. title:text,body:text,lang:keyword,url:stored.")
  String schema;

  @Option(names = "--max-concurrent-requests", description = "Requests handled at once; more get 503 (default: ${DEFAULT-VALUE}).", defaultValue = "32")
  int maxConcurrentRequests;

  @Option(names = "--max-body", converter = ByteSize.class, description = "Largest request body (default: ${DEFAULT-VALUE}).", defaultValue = "16m")
  long maxBody;

  @Option(names = "--max-document", converter = ByteSize.class, description = "Largest single document (default: ${DEFAULT-VALUE}).", defaultValue = "1m")
  long maxDocument;

  @Option(names = "--max-results", description = "Largest k of a search (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
  int maxResults;

  @Option(names = "--max-regexp-length", description = "Longest regular expression or wildcard pattern in a query, in characters (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
  int maxRegexpLength;

  @Option(names = "--max-regexp-states", description = "Largest automaton a regular expression may describe, estimated before it is built (default: ${DEFAULT-VALUE}).", defaultValue = "10000")
  int maxRegexpStates;

  @Option(names = "--determinize-work-limit", description = "Lucene's determinization work limit for regexp and wildcard automata (default: ${DEFAULT-VALUE}).", defaultValue = "10000")
  int determinizeWorkLimit;

  @Option(names = "--max-expansions", description = "Terms a wildcard, prefix, regexp, fuzzy or range query expands to at most (default: ${DEFAULT-VALUE}).", defaultValue = "1024")
  int maxExpansions;

  @Option(names = "--max-clause-count", description = "Lucene's maximum number of clauses in a query, JVM-wide (default: ${DEFAULT-VALUE}).", defaultValue = "1024")
  int maxClauseCount;

  @Option(names = "--search-timeout", converter = TimeSpan.class, description = "Time budget of a search; past it the hits collected so far are returned with timed_out (default: ${DEFAULT-VALUE}).", defaultValue = "10s")
  Duration searchTimeout;

  @Option(names = "--max-search-timeout", converter = TimeSpan.class, description = "Largest budget a search may ask for with timeout= (default: ${DEFAULT-VALUE}).", defaultValue = "60s")
  Duration maxSearchTimeout;

  @Option(names = "--cache-size", converter = ByteSize.class, description = "Result cache size per index, e.g. 64m; 0 turns the cache off (default: ${DEFAULT-VALUE}).", defaultValue = "0")
  long cacheSize;

  @Option(names = "--cache-tier", description = "Where cache entries live: dram or nvm (a region of the index's pool, warm after a graceful restart) (default: ${DEFAULT-VALUE}).", defaultValue = "dram")
  String cacheTier;

  @Option(names = "--cache-policy", description = "Cache replacement policy: lru, dlirs or gdsf (cost-aware: keeps what saves the most compute per byte, the best measured) (default: ${DEFAULT-VALUE}).", defaultValue = "gdsf")
  String cachePolicy;

  @Option(names = "--cache-min-compute", converter = TimeSpan.class, description = "Inclusion threshold: results computed faster than this are not cached, e.g. 200us (default: ${DEFAULT-VALUE}).", defaultValue = "0ms")
  Duration cacheMinCompute;

  @Option(names = "--auth-token", description = "Bearer token required by write endpoints (default: none; env LUCENENVM_AUTH_TOKEN).", defaultValue = "${env:LUCENENVM_AUTH_TOKEN}")
  String authToken;

  /** The configuration the parsed options describe. */
  ServerConfig toConfig() {
    return ServerConfig.builder()
        .host(host)
        .port(port)
        .dataDir(dataDir)
        .poolSizeBytes(poolSize)
        .poolMaxBytes(poolMaxSize)
        .mode(mode)
        .logBytes(logSize)
        .logFullTimeout(logFullTimeout)
        .discardUnverifiable(discardUnverifiable)
        .dramBudgetBytes(dramBudget)
        .segmentSize(segmentSize)
        .codec(codec)
        .partitions(partitions)
        .backgroundNice(backgroundNice)
        .floodStage(floodStage)
        .defaultSchema(schema == null || schema.isBlank() ? null : Schemas.parse(schema))
        .maxConcurrentRequests(maxConcurrentRequests)
        .maxBodyBytes(maxBody)
        .maxDocumentBytes(Math.toIntExact(maxDocument))
        .maxResults(maxResults)
        .authToken(authToken == null || authToken.isEmpty() ? null : authToken)
        .queryLimits(
            new QueryLimits(
                maxRegexpLength,
                maxRegexpStates,
                determinizeWorkLimit,
                maxExpansions,
                maxClauseCount,
                searchTimeout,
                maxSearchTimeout))
        .cache(cacheSettings())
        .build();
  }

  private ResultCacheSettings cacheSettings() {
    if (cacheSize < 0) {
      throw new IllegalArgumentException("--cache-size must be >= 0, got " + cacheSize);
    }
    if (cacheSize == 0) {
      return ResultCacheSettings.DISABLED;
    }
    CachePolicy.Kind policy;
    try {
      policy = CachePolicy.Kind.parse(cachePolicy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + e.getMessage());
    }
    return ResultCacheSettings.of(
        ResultCacheSettings.Tier.parse(cacheTier), cacheSize, policy, cacheMinCompute.toNanos());
  }

  @Override
  public Integer call() throws Exception {
    ServerConfig cfg = toConfig();
    SearchServer server = new SearchServer(cfg).start().closeOnShutdown();
    System.out.printf(
        "lucene-nvm search server on %s (data %s, mode %s, %d index(es)); stop with Ctrl-C or SIGTERM%n",
        server.uri(), cfg.dataDir().toAbsolutePath(), cfg.mode(), server.indexes().list().size());
    new CountDownLatch(1).await();
    return 0;
  }

  /**
   * A command line for {@code args}, with the defaults of the {@code --config} file (if any)
   * installed before parsing.
   */
  static CommandLine commandLine(ServerCli cli, String[] args) {
    CommandLine cmd = new CommandLine(cli);
    Path file = configFile(args);
    if (file != null) {
      if (!Files.isReadable(file)) {
        throw new CommandLine.ParameterException(cmd, "config file " + file + " is not readable");
      }
      cmd.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(file.toFile()));
    }
    return cmd;
  }

  private static Path configFile(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        return Path.of(args[i + 1]);
      }
      if (args[i].startsWith("--config=")) {
        return Path.of(args[i].substring("--config=".length()));
      }
    }
    return null;
  }

  /** Runs the server; exits with a message naming the problem on bad settings. */
  public static void main(String[] args) {
    ServerCli cli = new ServerCli();
    CommandLine cmd;
    try {
      cmd = commandLine(cli, args);
    } catch (CommandLine.ParameterException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    cmd.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          System.err.println("search-server: " + e.getMessage());
          return e instanceof IllegalArgumentException ? 2 : 1;
        });
    System.exit(cmd.execute(args));
  }
}
