package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.Test;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.RtEngineConfig;
import org.lucenenvm.server.ByteSize;

public class TestSmallParts {

  @Test
  public void childJvmsPreTouchTheirHeapUnlessTheirOptionsSay() {
    List<String> given = ChildJvm.command(List.of("-Xms1g", "-Xmx4g"), List.of("query"));
    assertEquals(1, given.stream().filter(ChildJvm.PRE_TOUCH::equals).count());
    assertTrue(given.containsAll(ChildJvm.REQUIRED_OPTIONS));
    assertEquals("query", given.getLast());
    List<String> own = ChildJvm.command(List.of(), List.of("query"));
    assertEquals(1, own.stream().filter(option -> option.contains("AlwaysPreTouch")).count());
    List<String> off = ChildJvm.command(List.of("-XX:-AlwaysPreTouch"), List.of("query"));
    assertFalse(off.contains(ChildJvm.PRE_TOUCH));
  }

  @Test
  public void refreshPolicyParsesIntervalsAndNever() {
    RefreshPolicy ten = RefreshPolicy.parse("10");
    assertEquals("NRT-10", ten.label());
    assertTrue(ten.refreshBefore(0));
    assertFalse(ten.refreshBefore(9));
    assertTrue(ten.refreshBefore(20));
    RefreshPolicy never = RefreshPolicy.parse("inf");
    assertTrue(never.never());
    assertEquals("NRT-inf", never.label());
    assertFalse(never.refreshBefore(0));
    assertEquals(never, RefreshPolicy.parse("∞"));
    assertThrows(IllegalArgumentException.class, () -> RefreshPolicy.parse("0"));
    assertThrows(IllegalArgumentException.class, () -> RefreshPolicy.parse("often"));
  }

  @Test
  public void engineSettingsParseEveryDurabilityMode() {
    EngineSettings crash = EngineSettings.parse("crash-eager-lazy", EngineSettings.DEFAULT_CODEC, 100, 1, 1, 1);
    assertEquals(org.lucenenvm.realtime.DurabilityMode.CRASH_CONSISTENT, crash.mode());
    assertEquals("RT-crash-eager-lazy", crash.label());
    assertEquals("RT-graceful-lazy-lazy",
        EngineSettings.parse("graceful-lazy-lazy", EngineSettings.DEFAULT_CODEC, 100, 1, 1, 1).label());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EngineSettings.parse("durable-eager-lazy", EngineSettings.DEFAULT_CODEC, 100, 1, 1, 1));
    assertTrue(e.getMessage(), e.getMessage().contains("volatile, graceful or crash"));
  }

  @Test
  public void sizesParseWithUnits() {
    assertEquals(512L << 20, ByteSize.parse("512m"));
    assertEquals(8L << 30, ByteSize.parse("8G"));
    assertEquals(4096, ByteSize.parse("4096"));
    assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("-1g"));
    assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("lots"));
  }

  @Test
  public void unknownConfigurationIsAnErrorListingTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Configurations.select(List.of("ssd"), 1 << 20));
    assertTrue(e.getMessage(), e.getMessage().contains("lucene-dram"));
  }

  @Test
  public void zipfPopularityIsSeededAndFavoursTheFirstRanks() {
    List<Query> distinct = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      distinct.add(new TermQuery(new Term("body", "t" + i)));
    }
    QueryPopularity zipf = QueryPopularity.parse("zipf:1.0");
    List<Query> a = zipf.stream(distinct, new SplittableRandom(7));
    assertEquals(QueryPopularity.ZIPF_STREAM, a.size());
    assertEquals(a, zipf.stream(distinct, new SplittableRandom(7)));
    Map<Query, Long> counts = a.stream().collect(Collectors.groupingBy(q -> q, Collectors.counting()));
    // rank 1 has probability 1 / H(50) = 22.2 %, rank 50 0.44 %
    assertEquals(0.222, counts.get(distinct.get(0)) / (double) a.size(), 0.01);
    assertTrue(counts.get(distinct.get(0)) > 10 * counts.getOrDefault(distinct.get(49), 0L));
    assertEquals(distinct, QueryPopularity.UNIFORM.stream(distinct, new SplittableRandom(7)));
    assertEquals("zipf:1.0", zipf.toString());
    for (String bad : List.of("zipf", "zipf:0", "zipf:-1", "zipf:x", "pareto")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueryPopularity.parse(bad));
      assertTrue(e.getMessage(), e.getMessage().contains("uniform or zipf:"));
    }
  }

  @Test
  public void engineCacheSpecsParseAndNameTheRow() {
    assertEquals(RtCache.OFF, RtCache.parse("off"));
    RtCache nvm = RtCache.parse("nvm-dlirs-64m-200us");
    assertEquals(ResultCacheSettings.Tier.NVM, nvm.settings().tier());
    assertEquals(CachePolicy.Kind.DLIRS, nvm.settings().policy());
    assertEquals(64L << 20, nvm.settings().bytes());
    assertEquals(200_000, nvm.settings().minComputeNanos());
    // the 5 % size class of a ~122 MB index
    assertEquals(6L << 20, RtCache.parse("dram-lru-6m").settings().bytes());
    assertEquals(6L << 20, RtCache.parse("nvm-dlirs-6m").settings().bytes());
    EngineSettings engine = EngineSettings.parse("volatile-eager-lazy", EngineSettings.DEFAULT_CODEC, 1000, 1, 1, 1);
    assertEquals("RT-volatile-eager-lazy", engine.label());
    assertEquals("RT-volatile-eager-lazy-cache-dram-lru-8m", engine.withCache(RtCache.parse("dram-lru-8m")).label());
    assertEquals("RT-volatile-eager-lazy-maxseg4", engine.withTuning(EngineSettings.Tuning.DEFAULTS.withMaxSegments(4)).label());
    assertEquals(4, EngineTarget.engineConfig(engine.withTuning(EngineSettings.Tuning.DEFAULTS.withMaxSegments(4)), new StandardAnalyzer()).maxSegments());
    assertEquals("RT-volatile-eager-lazy-maxseg8-queue1", engine.withTuning(EngineSettings.Tuning.DEFAULTS.withMaxSegments(8).withQueueCapacity(1)).label());
    RtEngineConfig queued = EngineTarget.engineConfig(engine.withTuning(EngineSettings.Tuning.DEFAULTS.withQueueCapacity(1)), new StandardAnalyzer());
    assertEquals(1, queued.queueCapacity());
    assertEquals(RtEngineConfig.defaults(EngineTarget.SCHEMA).maxSegments(), queued.maxSegments());
    assertEquals(RtEngineConfig.defaults(EngineTarget.SCHEMA).queueCapacity(),
        EngineTarget.engineConfig(engine, new StandardAnalyzer()).queueCapacity());
    EngineSettings.Tuning lagged = EngineSettings.Tuning.DEFAULTS.withStatisticsLag(2).withBackgroundNice(3);
    assertEquals("RT-volatile-eager-lazy-lag2-nice3", engine.withTuning(lagged).label());
    RtEngineConfig laggedConfig = EngineTarget.engineConfig(engine.withTuning(lagged), new StandardAnalyzer());
    assertEquals(2, laggedConfig.statisticsLagSegments());
    assertEquals(3, laggedConfig.backgroundNice());
    assertThrows(IllegalArgumentException.class, () -> EngineSettings.Tuning.DEFAULTS.withStatisticsLag(-1));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RtCache.parse("dram-fifo-8m")).getMessage().contains("lru, dlirs or gdsf"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RtCache.parse("ssd-lru-8m")).getMessage().contains("dram or nvm"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RtCache.parse("dram-lru")).getMessage().contains("<dram|nvm>"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RtCache.parse("dram-lru-1m-2ms-paired-paired")).getMessage().contains("[-paired]"));
    assertFalse(RtCache.parse("dram-lru-8m").paired());
    RtCache paired = RtCache.parse("nvm-gdsf-176k-200us-paired");
    assertTrue(paired.paired());
    assertEquals(CachePolicy.Kind.GDSF, paired.settings().policy());
    assertEquals(200_000, paired.settings().minComputeNanos());
    assertEquals("RT-volatile-eager-lazy-cache-dram-gdsf-176k-paired", engine.withCache(RtCache.parse("dram-gdsf-176k-paired")).label());
  }

  @Test
  public void aWarmupShareOfOneMeansAStaticWindow() {
    assertTrue(runSettings(1.0).staticWindow());
    assertEquals(10, runSettings(1.0).warmupDocs());
    assertFalse(runSettings(0.8).staticWindow());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> runSettings(1.5)).getMessage().contains("[0, 1]"));
  }

  private static RunSettings runSettings(double warmupShare) {
    return new RunSettings(java.nio.file.Path.of("corpus"), 10, java.nio.file.Path.of("work"), false, 1, false, 1, 0, warmupShare, 10, 16, 0, 0, 0);
  }
}
