package org.lucenenvm.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads and writes results as CSV: a header line with the column names below, then one {@link
 * ResultRow} per line, fields separated by commas. Text fields never contain commas or quotes (a
 * status message's commas become semicolons); a missing number is an empty field.
 *
 * <p>Columns: {@code mode, configuration, status, category, queries, p50_us, p95_us, p99_us,
 * mean_us, max_us, qps, mean_hits, zero_hit_queries, unseen_mean, unseen_max, docs,
 * ingest_docs_per_s, index_bytes, heap_bytes}.
 */
public final class ResultsCsv {

  /** The header line. */
  public static final String HEADER =
      "mode,configuration,status,category,queries,p50_us,p95_us,p99_us,mean_us,max_us,qps,mean_hits,"
          + "zero_hit_queries,unseen_mean,unseen_max,docs,ingest_docs_per_s,index_bytes,heap_bytes";

  private static final int COLUMNS = HEADER.split(",").length;

  private ResultsCsv() {}

  /** Writes {@code rows} to {@code file}. */
  public static void write(Path file, List<ResultRow> rows) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(HEADER);
      out.newLine();
      for (ResultRow r : rows) {
        out.write(String.join(",",
            text(r.mode()), text(r.configuration()), text(r.status()), text(r.category()), Long.toString(r.queries()),
            number(r.p50Micros()), number(r.p95Micros()), number(r.p99Micros()), number(r.meanMicros()), number(r.maxMicros()),
            number(r.qps()), number(r.meanHits()), count(r.zeroHitQueries()), number(r.unseenMean()), count(r.unseenMax()),
            Long.toString(r.docs()), number(r.ingestDocsPerSecond()), count(r.indexBytes()), count(r.heapBytes())));
        out.newLine();
      }
    }
  }

  /** Reads rows written by {@link #write}; a malformed line is an error naming file and line. */
  public static List<ResultRow> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IOException(file + " is not a results CSV: the first line must be '" + HEADER + "'");
    }
    List<ResultRow> rows = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      String[] f = lines.get(i).split(",", -1);
      if (f.length != COLUMNS) {
        throw new IOException(file + " line " + (i + 1) + ": expected " + COLUMNS + " fields, found " + f.length);
      }
      try {
        rows.add(new ResultRow(f[0], f[1], f[2], f[3], Long.parseLong(f[4]),
            parse(f[5]), parse(f[6]), parse(f[7]), parse(f[8]), parse(f[9]), parse(f[10]), parse(f[11]),
            parseCount(f[12]), parse(f[13]), parseCount(f[14]), Long.parseLong(f[15]), parse(f[16]),
            parseCount(f[17]), parseCount(f[18])));
      } catch (NumberFormatException e) {
        throw new IOException(file + " line " + (i + 1) + ": bad number: " + e.getMessage(), e);
      }
    }
    return rows;
  }

  private static String text(String s) {
    return s.replace(',', ';').replace('"', '\'').replace('\n', ' ');
  }

  private static String number(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String count(long v) {
    return v < 0 ? "" : Long.toString(v);
  }

  private static double parse(String s) {
    return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
  }

  private static long parseCount(String s) {
    return s.isEmpty() ? -1 : Long.parseLong(s);
  }
}
