package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;
import org.lucenenvm.server.ByteSize;

public class TestSmallParts {

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
}
