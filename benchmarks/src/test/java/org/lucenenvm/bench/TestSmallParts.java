package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

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
  public void sizesParseWithUnits() {
    assertEquals(512L << 20, RunCommand.parseSize("512m"));
    assertEquals(8L << 30, RunCommand.parseSize("8G"));
    assertEquals(4096, RunCommand.parseSize("4096"));
    assertThrows(IllegalArgumentException.class, () -> RunCommand.parseSize("-1g"));
    assertThrows(IllegalArgumentException.class, () -> RunCommand.parseSize("lots"));
  }

  @Test
  public void unknownConfigurationIsAnErrorListingTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Configurations.select(List.of("ssd"), 1 << 20));
    assertTrue(e.getMessage(), e.getMessage().contains("lucene-dram"));
  }
}
