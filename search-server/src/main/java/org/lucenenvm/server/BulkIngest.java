package org.lucenenvm.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.lucenenvm.realtime.RtDocument;

/**
 * Ingests an NDJSON body, one JSON document per line ({@link Documents}), blank lines ignored, and
 * reports every line's outcome, as Elasticsearch's {@code _bulk} does.
 *
 * <p>Lines are applied in order, each on its own. A line that is malformed, too large or refused by
 * the engine (undeclared field, duplicate id on add, ...) fails alone; the lines around it are still
 * applied. A refusal that is not about the line (the pool at its flood stage: 429; a full ingest
 * log, a failed or closing engine: 503 or 507) fails that line and every later one, unapplied, with
 * the same status and message (a later line that is malformed fails with its own 400).
 *
 * <p>The answer is 200: {@code acknowledged} (lines applied), {@code failed}, {@code errors}
 * (whether any line failed), {@code took_us} and {@code items}, one per non-blank line in order:
 * {@code line} (1-based), {@code id} (null when the line has none that can be read), {@code status}
 * (201 added, 200 upserted, else what the line alone would have been answered) and, for a failed
 * line, {@code error}. Every item with status 200 or 201 was applied and is searchable when the
 * response is sent; no other item was applied.
 */
final class BulkIngest {
  private static final Logger LOG = Logger.getLogger(BulkIngest.class.getName());

  private final ObjectMapper json;
  private final int maxDocumentBytes;

  BulkIngest(ObjectMapper json, int maxDocumentBytes) {
    this.json = json;
    this.maxDocumentBytes = maxDocumentBytes;
  }

  /** A refusal that fails every later line too. */
  private record Stop(int status, String message) {}

  /** Applies every line of {@code body} to {@code index}; {@code upsert} replaces existing ids. */
  Reply ingest(OpenIndex index, byte[] body, boolean upsert) {
    long start = System.nanoTime();
    List<Map<String, Object>> items = new ArrayList<>();
    long acknowledged = 0;
    Stop stop = null;
    int line = 0;
    for (int from = 0; from < body.length; ) {
      int end = from;
      while (end < body.length && body[end] != '\n') {
        end++;
      }
      line++;
      int to = end > from && body[end - 1] == '\r' ? end - 1 : end;
      if (!isBlank(body, from, to)) {
        RtDocument doc = null;
        try {
          doc = parse(body, from, to, line);
          if (stop != null) {
            items.add(item(line, doc.id(), stop.status(), stop.message()));
          } else {
            apply(index, doc, upsert);
            items.add(item(line, doc.id(), upsert ? 200 : 201, null));
            acknowledged++;
          }
        } catch (RuntimeException | IOException e) {
          int status = ApiHandler.statusOf(e);
          if (status == 500) {
            LOG.log(Level.WARNING, "bulk line " + line + " failed", e);
          }
          items.add(item(line, doc == null ? null : doc.id(), status, e.getMessage()));
          if (stop == null && (status == 429 || status >= 500)) {
            stop = new Stop(status, "not applied: line " + line + " was refused: " + e.getMessage());
          }
        }
      }
      from = end + 1;
    }
    index.ingested().mark(acknowledged);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("acknowledged", acknowledged);
    out.put("failed", items.size() - acknowledged);
    out.put("errors", items.size() > acknowledged);
    out.put("took_us", (System.nanoTime() - start) / 1000);
    out.put("items", items);
    return Reply.ok(out);
  }

  private RtDocument parse(byte[] body, int from, int to, int line) throws IOException {
    if (to - from > maxDocumentBytes) {
      throw new ApiException(
          413, "document of " + (to - from) + " bytes exceeds the limit of " + maxDocumentBytes);
    }
    return Documents.fromJson(Exchange.parseObject(json, body, from, to - from, "line " + line), null);
  }

  private static void apply(OpenIndex index, RtDocument doc, boolean upsert) {
    if (upsert) {
      index.update(doc);
    } else {
      index.add(doc);
    }
  }

  private static Map<String, Object> item(int line, String id, int status, String error) {
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("line", line);
    item.put("id", id);
    item.put("status", status);
    if (error != null) {
      item.put("error", error);
    }
    return item;
  }

  private static boolean isBlank(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != ' ' && bytes[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  static Map<String, Object> errorBody(int status, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("status", status);
    error.put("message", message);
    return error;
  }
}
