package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.Test;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.DurabilityMode;

/** {@link ServerConfig#toBuilder()} carries every setting over. */
public class ServerConfigTest {

  /** A configuration in which no setting has its default value. */
  private static ServerConfig everySettingChanged() {
    return ServerConfig.builder()
        .host("10.1.2.3")
        .port(9400)
        .dataDir(Path.of("/srv/pools"))
        .poolSizeBytes(256L << 20)
        .poolMaxBytes(1L << 30)
        .mode(DurabilityMode.GRACEFUL)
        .logBytes(1L << 20)
        .logFullTimeout(Duration.ofSeconds(3))
        .discardUnverifiable(Set.of("products", "logs"))
        .dramBudgetBytes(8L << 20)
        .segmentSize(500)
        .codec("NvmCodec")
        .partitions(3)
        .backgroundNice(4)
        .floodStage(0.9)
        .defaultSchema(Schemas.parse("title:text,lang:keyword"))
        .maxConcurrentRequests(7)
        .maxBodyBytes(1L << 20)
        .maxDocumentBytes(4096)
        .maxResults(50)
        .authToken("abc")
        .queryLimits(
            new QueryLimits(200, 500, 2000, 64, 256, Duration.ofMillis(750), Duration.ofSeconds(5)))
        .cache(ResultCacheSettings.of(ResultCacheSettings.Tier.DRAM, 32L << 20, CachePolicy.Kind.LRU, 200_000))
        .build();
  }

  @Test
  public void toBuilderKeepsEverySetting() throws Exception {
    ServerConfig config = everySettingChanged();
    ServerConfig defaults = ServerConfig.builder().build();
    // Guards the test itself: a setting left at its default would pass even if toBuilder dropped it.
    for (RecordComponent component : ServerConfig.class.getRecordComponents()) {
      assertNotEquals(
          component.getName() + " must differ from its default",
          component.getAccessor().invoke(defaults),
          component.getAccessor().invoke(config));
    }
    assertEquals(config, config.toBuilder().build());
  }

  @Test
  public void toBuilderChangesOnlyWhatIsSet() {
    ServerConfig config = everySettingChanged();
    ServerConfig moved = config.toBuilder().dataDir(Path.of("/srv/other")).build();
    assertEquals(Path.of("/srv/other"), moved.dataDir());
    assertEquals(config, moved.toBuilder().dataDir(config.dataDir()).build());
  }
}
