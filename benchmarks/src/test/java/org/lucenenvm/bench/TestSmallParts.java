package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Optional;
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

  @Test
  public void nvmConfigurationsReportAbsenceExactlyWhenTheirClassesAreMissing() {
    var all = Configurations.all(1 << 20);
    boolean directoryPresent = isLoadable(NvmComponents.DIRECTORY_CLASS);
    boolean codecPresent = org.apache.lucene.codecs.Codec.availableCodecs().contains(NvmComponents.CODEC_NAME);
    assertEquals(directoryPresent, all.get("lucene-nvm").absence().isEmpty());
    assertEquals(directoryPresent && codecPresent, all.get("nvm-uncompressed").absence().isEmpty());
    assertEquals(Optional.empty(), all.get("lucene-dram").absence());
    assertEquals(Optional.empty(), all.get("direct-heap").absence());
  }

  private static boolean isLoadable(String className) {
    try {
      Class.forName(className);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
