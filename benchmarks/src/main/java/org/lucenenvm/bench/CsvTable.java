package org.lucenenvm.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.RuntimeJsonMappingException;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * Writes a CSV file (RFC 4180, through Jackson's CSV module): a header line, then one line per
 * row, all at once ({@link #write}) or one row at a time ({@link #append}, the header written
 * once); {@link #concatenate} joins tables of the same header. A field holding a comma, a quote or a line break is quoted (quotes doubled), so any text
 * survives a round trip, and only such a field is quoted; a missing number is an empty field ({@link #number}).
 */
final class CsvTable {
  /** Quotes a field only when it needs it (Jackson quotes every long field by default). */
  private static final CsvMapper CSV =
      CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();

  private CsvTable() {}

  /** Writes {@code header} and {@code rows} (each as long as the header) to {@code file}. */
  static void write(Path file, List<String> header, List<List<String>> rows) throws IOException {
    CsvSchema schema = CsvSchema.emptySchema();
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        SequenceWriter csv = CSV.writer(schema).writeValues(out)) {
      csv.write(header);
      for (List<String> row : rows) {
        checkWidth(file, header, row);
        csv.write(row);
      }
    }
  }

  /**
   * Appends {@code row} to {@code file}, writing {@code header} first when the file is new or
   * empty; a file that exists must start with the same header, so rows never land under columns
   * they do not belong to.
   */
  static void append(Path file, List<String> header, List<String> row) throws IOException {
    checkWidth(file, header, row);
    boolean fresh = !Files.exists(file) || Files.size(file) == 0;
    if (!fresh) {
      checkHeader(file, header);
    }
    try (Writer out =
            Files.newBufferedWriter(
                file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        SequenceWriter csv = CSV.writer(CsvSchema.emptySchema()).writeValues(out)) {
      if (fresh) {
        csv.write(header);
      }
      csv.write(row);
    }
  }

  /**
   * Writes the files of {@code parts} that exist, in order, to {@code target} as one table: the
   * header once, then every part's rows. Parts must have the same header line; with no part,
   * {@code target} is removed.
   */
  static void concatenate(List<Path> parts, Path target) throws IOException {
    Files.deleteIfExists(target);
    String header = null;
    StringBuilder table = new StringBuilder();
    for (Path part : parts) {
      if (!Files.exists(part)) {
        continue;
      }
      String text = Files.readString(part, StandardCharsets.UTF_8);
      int end = text.indexOf('\n');
      String partHeader = end < 0 ? text : text.substring(0, end + 1);
      if (header == null) {
        header = partHeader;
        table.append(header);
      } else if (!header.equals(partHeader)) {
        throw new IOException(part + ": cannot concatenate, its header '" + partHeader.strip() + "' is not '" + header.strip() + "'");
      }
      table.append(text, partHeader.length(), text.length());
    }
    if (header != null) {
      Files.writeString(target, table, StandardCharsets.UTF_8);
    }
  }

  private static void checkHeader(Path file, List<String> header) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        MappingIterator<String[]> lines =
            CSV.readerFor(String[].class).with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(in)) {
      List<String> found = lines.hasNext() ? List.of(lines.next()) : List.of();
      if (!found.equals(header)) {
        throw new IOException(
            file + ": cannot append, its header " + found + " is not the expected " + header);
      }
    } catch (JsonProcessingException | RuntimeJsonMappingException e) {
      throw new IOException(file + ": cannot append, malformed CSV: " + e.getMessage(), e);
    }
  }

  private static void checkWidth(Path file, List<String> header, List<String> row) {
    if (row.size() != header.size()) {
      throw new IllegalArgumentException(
          file + ": row has " + row.size() + " fields, header " + header.size() + ": " + row);
    }
  }

  /** {@code v} with {@code decimals} digits after the point, or an empty field for NaN. */
  static String number(double v, int decimals) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
