package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Text with commas, quotes and line breaks survives a round trip; files without the paced columns are read; bad files are named. */
public class TestResultsCsv {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static ResultRow row(String configuration, String status) {
    return new ResultRow("static", configuration, status, "All", 10, 1.5, 2.5, 3.5, 2.0, 9.0,
        1234.5, Double.NaN, -1, Double.NaN, -1, 1000, 5000.0, 4096, -1, Double.NaN, Double.NaN);
  }

  private static ResultRow pacedRow() {
    return new ResultRow("WRT", "NRT-inf", "ok", "All", 10, 1.5, 2.5, 3.5, 2.0, 9.0,
        1234.5, 7.0, 0, 0.5, 3, 1000, 4950.0, 4096, 1 << 20, 5000.0, 12.5);
  }

  @Test
  public void quotesRoundTrip() throws IOException {
    Path file = tmp.newFile("results.csv").toPath();
    List<ResultRow> rows =
        List.of(
            row("nvm, 4 partitions", "ok"),
            row("say \"hi\"", "failed: expected 3, got \"4\"\nsecond line"),
            row("plain", "ok"),
            pacedRow());
    ResultsCsv.write(file, rows);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertTrue(text, text.startsWith(ResultsCsv.HEADER + "\n"));
    assertTrue(text, text.contains("\"nvm, 4 partitions\""));
    assertTrue(text, text.contains("\"say \"\"hi\"\"\""));
    List<ResultRow> read = ResultsCsv.read(file);
    assertEquals(rows, read);
    assertEquals(null, read.get(0).ingestPace());
    assertEquals(new IngestPace(5000.0, 4950.0, 12.5), read.get(3).ingestPace());
    assertTrue(read.get(3).ingestPace().keptUp());
  }

  @Test
  public void filesWrittenBeforePacingAreReadAsUnpaced() throws IOException {
    Path file = tmp.newFile("old.csv").toPath();
    Files.writeString(file, ResultsCsv.UNPACED_HEADER + "\nstatic,plain,ok,All,10,1.500,2.500,3.500,2.000,9.000,1234.500,,,,,1000,5000.000,4096,\n");
    assertEquals(List.of(row("plain", "ok")), ResultsCsv.read(file));
  }

  @Test
  public void badFilesAreNamed() throws IOException {
    Path notCsv = tmp.newFile("other.csv").toPath();
    Files.writeString(notCsv, "a,b\n1,2\n");
    assertTrue(assertThrows(IOException.class, () -> ResultsCsv.read(notCsv)).getMessage().contains("not a results CSV"));
    Path shortLine = tmp.newFile("short.csv").toPath();
    Files.writeString(shortLine, ResultsCsv.HEADER + "\nstatic,x,ok\n");
    String message = assertThrows(IOException.class, () -> ResultsCsv.read(shortLine)).getMessage();
    assertTrue(message, message.contains("line 2") && message.contains("expected 21 fields, found 3"));
  }
}
