package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.store.PoolGrowth;
import picocli.CommandLine;

/** Settings come from defaults, then the config file, then the command line. */
public class ServerCliTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static ServerConfig parse(String... args) {
    ServerCli cli = new ServerCli();
    ServerCli.commandLine(cli, args).parseArgs(args);
    return cli.toConfig();
  }

  @Test
  public void safeDefaults() {
    ServerConfig c = parse();
    assertEquals("127.0.0.1", c.host());
    assertTrue(c.bindsLoopbackOnly());
    assertNull(c.authToken());
    assertEquals(DurabilityMode.CRASH_CONSISTENT, c.mode());
    assertEquals(64L << 20, c.logBytes());
    assertTrue(c.discardUnverifiable().isEmpty());
    assertEquals("Lucene104", c.codec());
    assertEquals(512L << 20, c.poolSizeBytes());
    assertEquals(32, c.maxConcurrentRequests());
    assertEquals(16L << 20, c.maxBodyBytes());
    assertEquals(QueryLimits.DEFAULTS, c.queryLimits());
    assertEquals(ResultCacheSettings.DISABLED, c.cache());
    assertEquals(RtEngineConfig.DEFAULT_FLOOD_STAGE, c.floodStage(), 0);
    assertEquals(PoolGrowth.unbounded(), c.poolGrowth());
  }

  /** Pools grow while serving with no maximum by default; a size caps the growth, 0 turns it off. */
  @Test
  public void poolMaxSize() {
    assertEquals(PoolGrowth.UNBOUNDED, parse("--pool-max-size", "Unbounded").poolMaxBytes());
    assertEquals(PoolGrowth.upTo(8L << 30), parse("--pool-max-size", "8g").poolGrowth());
    ServerConfig off = parse("--pool-max-size", "0");
    assertEquals(0, off.poolMaxBytes());
    assertEquals(PoolGrowth.OFF, off.poolGrowth());
  }

  @Test
  public void cacheSettingsFromFileAndCommandLine() throws Exception {
    Path file = tmp.newFile("cache.properties").toPath();
    Files.writeString(
        file,
        String.join(
            "\n", "cache-size=32m", "cache-tier=nvm", "cache-policy=dlirs", "cache-min-compute=200us"));
    ResultCacheSettings c = parse("--config", file.toString(), "--cache-policy", "lru").cache();
    assertTrue(c.enabled());
    assertEquals(ResultCacheSettings.Tier.NVM, c.tier());
    assertEquals(32L << 20, c.bytes());
    assertEquals(CachePolicy.Kind.LRU, c.policy());
    assertEquals(200_000, c.minComputeNanos());
    ResultCacheSettings sized = parse("--cache-size", "64m").cache();
    assertEquals("the default policy", CachePolicy.Kind.GDSF, sized.policy());
    assertEquals(ResultCacheSettings.Tier.DRAM, sized.tier());
    IllegalArgumentException policy =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("--cache-size", "1m", "--cache-policy", "fifo"));
    assertTrue(policy.getMessage(), policy.getMessage().contains("--cache policy must be lru, dlirs or gdsf"));
    IllegalArgumentException tier =
        assertThrows(
            IllegalArgumentException.class, () -> parse("--cache-size", "1m", "--cache-tier", "ssd"));
    assertTrue(tier.getMessage(), tier.getMessage().contains("dram or nvm"));
    IllegalArgumentException tooLarge =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "--pool-size", "64m", "--log-size", "8m", "--cache-size", "48m", "--cache-tier",
                    "nvm"));
    assertTrue(tooLarge.getMessage(), tooLarge.getMessage().contains("half the pool size"));
  }

  @Test
  public void ingestLogsAndNvmCacheShareHalfThePool() {
    // Each fits in half of the 64 MiB pool on its own; together they do not.
    assertEquals(24L << 20, parse("--pool-size", "64m", "--log-size", "24m").logBytes());
    assertEquals(
        24L << 20,
        parse("--pool-size", "64m", "--log-size", "1m", "--cache-size", "24m", "--cache-tier", "nvm")
            .cache()
            .bytes());
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "--pool-size", "64m", "--log-size", "24m", "--cache-size", "24m", "--cache-tier",
                    "nvm"));
    String m = both.getMessage();
    assertTrue(m, m.contains("ingest logs (" + (24L << 20) + " bytes"));
    assertTrue(m, m.contains("NVM result cache (" + (24L << 20) + " bytes"));
    assertTrue(m, m.contains("take " + (48L << 20) + " bytes"));
    assertTrue(m, m.contains("half the pool size " + (64L << 20)));
    assertTrue(m, m.contains("--log-size") && m.contains("--cache-size") && m.contains("--pool-size"));
    // A DRAM cache and a mode without ingest log take nothing from the pool.
    parse("--pool-size", "64m", "--log-size", "24m", "--cache-size", "24m", "--cache-tier", "dram");
    parse("--pool-size", "64m", "--log-size", "24m", "--cache-size", "24m", "--cache-tier", "nvm", "--mode", "GRACEFUL");
  }

  @Test
  public void configFileThenCommandLineOverrides() throws Exception {
    Path file = tmp.newFile("server.properties").toPath();
    Files.writeString(
        file,
        String.join(
            "\n",
            "port=9300",
            "data-dir=/srv/pools",
            "pool-size=256m",
            "mode=VOLATILE",
            "log-size=1m",
            "dram-budget=8m",
            "segment-size=500",
            "codec=NvmCodec",
            "partitions=3",
            "background-nice=4",
            "flood-stage=90%",
            "schema=title:text,lang:keyword",
            "auth-token=abc",
            "max-body=1m",
            "max-regexp-length=200",
            "max-regexp-states=500",
            "determinize-work-limit=2000",
            "max-expansions=64",
            "max-clause-count=256",
            "search-timeout=750ms",
            "max-search-timeout=5s"));
    ServerConfig c =
        parse("--config", file.toString(), "--port", "9400", "--codec=Lucene104", "--max-expansions", "128");
    assertEquals(0.9, c.floodStage(), 1e-12);
    assertEquals(0.8, parse("--flood-stage", "0.8").floodStage(), 0);
    assertEquals(9400, c.port());
    assertEquals("Lucene104", c.codec());
    assertEquals(Path.of("/srv/pools"), c.dataDir());
    assertEquals(256L << 20, c.poolSizeBytes());
    assertEquals(DurabilityMode.VOLATILE, c.mode());
    assertEquals(1L << 20, c.logBytes());
    assertEquals(8L << 20, c.dramBudgetBytes());
    assertEquals(500, c.segmentSize());
    assertEquals(3, c.partitions());
    assertEquals(4, c.backgroundNice());
    assertEquals(Map.of("title", "text", "lang", "keyword"), Schemas.toMap(c.defaultSchema()));
    assertEquals("abc", c.authToken());
    assertEquals(1L << 20, c.maxBodyBytes());
    assertEquals(
        new QueryLimits(200, 500, 2000, 128, 256, Duration.ofMillis(750), Duration.ofSeconds(5)),
        c.queryLimits());
  }

  @Test
  public void badSettingsAreNamed() {
    IllegalArgumentException codec =
        assertThrows(IllegalArgumentException.class, () -> parse("--codec", "Nope"));
    assertTrue(codec.getMessage().contains("unknown codec 'Nope'"));
    IllegalArgumentException schema =
        assertThrows(IllegalArgumentException.class, () -> parse("--schema", "title:fulltext"));
    assertTrue(schema.getMessage().contains("unknown type 'fulltext'"));
    assertThrows(CommandLine.ParameterException.class, () -> parse("--mode", "SOMETIMES"));
    assertThrows(CommandLine.ParameterException.class, () -> parse("--pool-size", "12x"));
    assertThrows(CommandLine.ParameterException.class, () -> parse("--search-timeout", "soon"));
    IllegalArgumentException budget =
        assertThrows(IllegalArgumentException.class, () -> parse("--search-timeout", "2m"));
    assertTrue(budget.getMessage(), budget.getMessage().contains("maxSearchTimeout must be >= searchTimeout"));
    IllegalArgumentException nice =
        assertThrows(IllegalArgumentException.class, () -> parse("--background-nice", "20"));
    assertTrue(nice.getMessage(), nice.getMessage().contains("backgroundNice must be in 0..19"));
    assertEquals(RtEngineConfig.DEFAULT_BACKGROUND_NICE, parse().backgroundNice());
    assertThrows(CommandLine.ParameterException.class, () -> parse("--flood-stage", "most"));
    IllegalArgumentException flood =
        assertThrows(IllegalArgumentException.class, () -> parse("--flood-stage", "120%"));
    assertTrue(flood.getMessage(), flood.getMessage().contains("floodStage must be a share of the pool in (0, 1]"));
    IllegalArgumentException expansions =
        assertThrows(IllegalArgumentException.class, () -> parse("--max-expansions", "2000"));
    assertTrue(expansions.getMessage(), expansions.getMessage().contains("maxExpansions must be in 1..maxClauseCount (1024)"));
  }
}
