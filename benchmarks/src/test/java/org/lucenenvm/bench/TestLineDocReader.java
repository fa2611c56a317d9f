package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestLineDocReader {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void skipsLuceneutilHeaderAndSplitsOnTheFirstTwoTabs() throws IOException {
    Path file = temp.newFile("docs.txt").toPath();
    Files.writeString(file, "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n"
        + "First title\t01-JAN-2001 00:00:00.000\tsome body text\n"
        + "Second\t02-JAN-2001 00:00:00.000\tbody\twith a tab\n");
    try (LineDocReader reader = LineDocReader.open(file)) {
      assertEquals(new LineDoc("First title", "01-JAN-2001 00:00:00.000", "some body text"), reader.next());
      assertEquals(new LineDoc("Second", "02-JAN-2001 00:00:00.000", "body\twith a tab"), reader.next());
      assertNull(reader.next());
    }
  }

  @Test
  public void readsFilesWithoutHeaderAndGzipped() throws IOException {
    Path file = temp.newFile("docs.txt.gz").toPath();
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("t\td\tb\n".getBytes(StandardCharsets.UTF_8));
    }
    try (LineDocReader reader = LineDocReader.open(file)) {
      assertEquals(new LineDoc("t", "d", "b"), reader.next());
      assertNull(reader.next());
    }
  }

  @Test
  public void malformedLineNamesFileAndLine() throws IOException {
    Path file = temp.newFile("bad.txt").toPath();
    Files.writeString(file, "t\td\tb\nonly one\ttab\n");
    try (LineDocReader reader = LineDocReader.open(file)) {
      reader.next();
      IOException e = assertThrows(IOException.class, reader::next);
      assertTrue(e.getMessage(), e.getMessage().contains("line 2") && e.getMessage().contains("bad.txt"));
    }
  }

  @Test
  public void lineDocRejectsFieldsThatWouldNotRoundTrip() {
    assertThrows(IllegalArgumentException.class, () -> new LineDoc("a\tb", "d", "body"));
    assertThrows(IllegalArgumentException.class, () -> new LineDoc("a", "d", "two\nlines"));
    assertEquals("a\td\tb\tc", new LineDoc("a", "d", "b\tc").toLine());
  }
}
