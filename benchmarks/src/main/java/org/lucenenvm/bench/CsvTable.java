package org.lucenenvm.bench;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes a CSV file (RFC 4180, through Jackson's CSV module): a header line, then one line per
 * row. A field holding a comma, a quote or a line break is quoted (quotes doubled), so any text
 * survives a round trip; a missing number is an empty field ({@link #number}).
 */
final class CsvTable {
  private static final CsvMapper CSV = new CsvMapper();

  private CsvTable() {}

  /** Writes {@code header} and {@code rows} (each as long as the header) to {@code file}. */
  static void write(Path file, List<String> header, List<List<String>> rows) throws IOException {
    CsvSchema schema = CsvSchema.emptySchema();
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        SequenceWriter csv = CSV.writer(schema).writeValues(out)) {
      csv.write(header);
      for (List<String> row : rows) {
        if (row.size() != header.size()) {
          throw new IllegalArgumentException(
              file + ": row has " + row.size() + " fields, header " + header.size() + ": " + row);
        }
        csv.write(row);
      }
    }
  }

  /** {@code v} with {@code decimals} digits after the point, or an empty field for NaN. */
  static String number(double v, int decimals) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
