package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

/** Plain periodic lines when not on a terminal, in-place redraws on one. */
public class ProgressMeterTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  @Test
  public void plainLinesAtEveryTenPercentWhenNotATerminal() {
    try (ProgressMeter meter = new ProgressMeter(out, false, "ingest", 1000, "docs")) {
      for (int i = 0; i < 1000; i++) {
        meter.advance(1);
      }
      meter.clear();
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertFalse("no carriage returns in a log", text.contains("\r"));
    String[] lines = text.split("\n");
    assertEquals(text, 10, lines.length);
    assertTrue(lines[0], lines[0].startsWith("ingest") && lines[0].contains(" 10%  100/1,000 docs"));
    assertTrue(lines[9], lines[9].contains("100%  1,000/1,000 docs"));
  }

  @Test
  public void redrawsInPlaceOnATerminal() {
    try (ProgressMeter meter = new ProgressMeter(out, true, "query", 0, "queries")) {
      meter.advance(5);
      meter.clear();
      meter.advance(5);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text, text.startsWith("\rquery"));
    assertTrue(text, text.endsWith("\n"));
    assertEquals("one final line", 1, text.split("\n").length);
    assertTrue(text, text.contains("10 queries"));
  }
}
