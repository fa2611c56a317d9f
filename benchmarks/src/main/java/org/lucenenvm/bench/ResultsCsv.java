package org.lucenenvm.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads and writes results as CSV (RFC 4180, through Jackson's CSV module): a header line with the
 * column names below, then one {@link ResultRow} per line. A field holding a comma, a quote or a
 * line break is quoted (quotes doubled), so any text survives a round trip; a missing number is an
 * empty field.
 *
 * <p>Columns: {@code mode, configuration, status, category, queries, p50_us, p95_us, p99_us,
 * mean_us, max_us, qps, mean_hits, zero_hit_queries, unseen_mean, unseen_max, docs,
 * ingest_docs_per_s, index_bytes, heap_bytes, ingest_target_docs_per_s, ingest_max_lag_ms} (the
 * last two empty unless WRT ingestion was paced). Files written before those two columns existed
 * are read as unpaced.
 */
public final class ResultsCsv {

  /** The header line of files written before paced ingestion, still read. */
  static final String UNPACED_HEADER =
      "mode,configuration,status,category,queries,p50_us,p95_us,p99_us,mean_us,max_us,qps,mean_hits,"
          + "zero_hit_queries,unseen_mean,unseen_max,docs,ingest_docs_per_s,index_bytes,heap_bytes";

  /** The header line. */
  public static final String HEADER = UNPACED_HEADER + ",ingest_target_docs_per_s,ingest_max_lag_ms";

  private static final List<String> COLUMNS = List.of(HEADER.split(","));
  private static final List<String> UNPACED_COLUMNS = List.of(UNPACED_HEADER.split(","));
  private static final CsvMapper CSV = new CsvMapper();

  private ResultsCsv() {}

  /** Writes {@code rows} to {@code file}. */
  public static void write(Path file, List<ResultRow> rows) throws IOException {
    CsvTable.write(file, COLUMNS, rows.stream().map(ResultsCsv::fields).toList());
  }

  private static List<String> fields(ResultRow r) {
    return List.of(r.mode(), r.configuration(), r.status(), r.category(), Long.toString(r.queries()),
        number(r.p50Micros()), number(r.p95Micros()), number(r.p99Micros()), number(r.meanMicros()), number(r.maxMicros()),
        number(r.qps()), number(r.meanHits()), count(r.zeroHitQueries()), number(r.unseenMean()), count(r.unseenMax()),
        Long.toString(r.docs()), number(r.ingestDocsPerSecond()), count(r.indexBytes()), count(r.heapBytes()),
        number(r.ingestTargetDocsPerSecond()), number(r.ingestMaxLagMillis()));
  }

  /** Reads rows written by {@link #write}; a malformed line is an error naming file and line. */
  public static List<ResultRow> read(Path file) throws IOException {
    List<ResultRow> rows = new ArrayList<>();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        MappingIterator<String[]> it =
            CSV.readerFor(String[].class).with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(in)) {
      List<String> header = it.hasNext() ? Arrays.asList(it.next()) : List.of();
      if (!header.equals(COLUMNS) && !header.equals(UNPACED_COLUMNS)) {
        throw new IOException(file + " is not a results CSV: the first line must be '" + HEADER + "'");
      }
      while (it.hasNext()) {
        long line = it.getCurrentLocation().getLineNr();
        String[] f;
        try {
          f = it.next();
        } catch (RuntimeException e) {
          throw new IOException(file + " line " + line + ": " + e.getMessage(), e);
        }
        if (f.length == 1 && f[0].isBlank()) {
          continue;
        }
        if (f.length != header.size()) {
          throw new IOException(file + " line " + line + ": expected " + header.size() + " fields, found " + f.length);
        }
        try {
          rows.add(new ResultRow(f[0], f[1], f[2], f[3], Long.parseLong(f[4]),
              parse(f[5]), parse(f[6]), parse(f[7]), parse(f[8]), parse(f[9]), parse(f[10]), parse(f[11]),
              parseCount(f[12]), parse(f[13]), parseCount(f[14]), Long.parseLong(f[15]), parse(f[16]),
              parseCount(f[17]), parseCount(f[18]), f.length > 19 ? parse(f[19]) : Double.NaN, f.length > 20 ? parse(f[20]) : Double.NaN));
        } catch (NumberFormatException e) {
          throw new IOException(file + " line " + line + ": bad number: " + e.getMessage(), e);
        }
      }
    } catch (JsonProcessingException e) {
      throw new IOException(file + ": malformed CSV: " + e.getOriginalMessage(), e);
    }
    return rows;
  }

  private static String number(double v) {
    return CsvTable.number(v, 3);
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
