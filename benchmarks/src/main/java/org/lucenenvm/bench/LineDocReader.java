package org.lucenenvm.bench;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Streams documents out of a luceneutil line-doc file ({@code title<TAB>date<TAB>body} per line,
 * UTF-8, optionally gzip-compressed when the name ends in {@code .gz}).
 *
 * <p>A first line starting with {@value #HEADER_PREFIX} (luceneutil's field header) is skipped.
 * Memory use is constant: one line at a time. A line with fewer than two tabs is an error that names
 * the file and line number.
 */
public final class LineDocReader implements Closeable {

  /** Prefix of luceneutil's optional header line. */
  public static final String HEADER_PREFIX = "FIELDS_HEADER_INDICATOR###";

  private final Path file;
  private final BufferedReader in;
  private long lineNumber;

  private LineDocReader(Path file, BufferedReader in) {
    this.file = file;
    this.in = in;
  }

  /** Opens {@code file} for reading. */
  public static LineDocReader open(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    InputStream stream = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
    return new LineDocReader(file, new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16));
  }

  /** The next document, or {@code null} at the end of the file. */
  public LineDoc next() throws IOException {
    String line = in.readLine();
    lineNumber++;
    if (lineNumber == 1 && line != null && line.startsWith(HEADER_PREFIX)) {
      line = in.readLine();
      lineNumber++;
    }
    if (line == null) {
      return null;
    }
    int firstTab = line.indexOf(LineDoc.SEPARATOR);
    int secondTab = firstTab < 0 ? -1 : line.indexOf(LineDoc.SEPARATOR, firstTab + 1);
    if (secondTab < 0) {
      throw new IOException(
          "malformed line-doc line " + lineNumber + " in " + file + ": expected title<TAB>date<TAB>body");
    }
    return new LineDoc(line.substring(0, firstTab), line.substring(firstTab + 1, secondTab), line.substring(secondTab + 1));
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
