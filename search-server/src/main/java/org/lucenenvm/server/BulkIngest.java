package org.lucenenvm.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lucenenvm.realtime.IngestLogFullException;
import org.lucenenvm.realtime.NvmFullException;
import org.lucenenvm.realtime.RtDocument;

/**
 * Ingests an NDJSON body: one JSON document per line ({@link Documents}), blank lines ignored.
 *
 * <p>Partial-failure semantics: lines are applied in order, each on its own. A line that is
 * malformed, too large, or refused by the engine (undeclared field, duplicate id on add, ...) is
 * skipped and reported with its 1-based line number; the lines around it are still applied. Every
 * line counted in {@code acknowledged} is searchable when the response is sent. If the engine
 * stops taking writes (NVM full, engine failure, or a full ingest log: retry the lines after the
 * acknowledged ones later) the remaining lines are not applied and the response says how many
 * were acknowledged before. Status: 200 when every line was applied, 400 when some line was
 * refused, 507 (NVM full) or 503 (full ingest log, engine failed) when ingestion stopped; a 503
 * for a full ingest log carries {@code Retry-After}.
 */
final class BulkIngest {
  /** At most this many per-line errors are listed (all are counted). */
  static final int MAX_LISTED_ERRORS = 100;

  private final ObjectMapper json;
  private final int maxDocumentBytes;

  BulkIngest(ObjectMapper json, int maxDocumentBytes) {
    this.json = json;
    this.maxDocumentBytes = maxDocumentBytes;
  }

  /** Applies every line of {@code body} to {@code index}; {@code upsert} replaces existing ids. */
  Reply ingest(OpenIndex index, byte[] body, boolean upsert) throws IOException {
    long start = System.nanoTime();
    long acknowledged = 0;
    long failed = 0;
    List<Map<String, Object>> errors = new ArrayList<>();
    String stopped = null;
    int stopStatus = 0;
    int retryAfter = 0;
    int line = 0;
    for (int from = 0; from < body.length && stopped == null; ) {
      int end = from;
      while (end < body.length && body[end] != '\n') {
        end++;
      }
      line++;
      int to = end > from && body[end - 1] == '\r' ? end - 1 : end;
      try {
        if (!isBlank(body, from, to)) {
          apply(index, body, from, to, line, upsert);
          acknowledged++;
        }
      } catch (ApiException | IllegalArgumentException e) {
        failed++;
        if (errors.size() < MAX_LISTED_ERRORS) {
          errors.add(Map.of("line", line, "error", e.getMessage()));
        }
      } catch (NvmFullException e) {
        stopped = e.getMessage();
        stopStatus = 507;
      } catch (IngestLogFullException e) {
        stopped = e.getMessage();
        stopStatus = 503;
        retryAfter = Reply.LOG_FULL_RETRY_AFTER_SECONDS;
      } catch (IllegalStateException e) {
        stopped = e.getMessage();
        stopStatus = 503;
      }
      from = end + 1;
    }
    index.ingested().mark(acknowledged);
    Map<String, Object> out = new LinkedHashMap<>();
    int status = 200;
    if (stopped != null) {
      status = stopStatus;
      out.put("error", errorBody(status, "ingestion stopped at line " + line + ": " + stopped));
    } else if (failed > 0) {
      status = 400;
      out.put("error", errorBody(status, failed + " line(s) refused, see 'errors'"));
    }
    out.put("acknowledged", acknowledged);
    out.put("failed", failed);
    out.put("errors", errors);
    out.put("took_us", (System.nanoTime() - start) / 1000);
    return new Reply(status, out, retryAfter);
  }

  private void apply(OpenIndex index, byte[] body, int from, int to, int line, boolean upsert)
      throws IOException {
    if (to - from > maxDocumentBytes) {
      throw new ApiException(
          413, "document of " + (to - from) + " bytes exceeds the limit of " + maxDocumentBytes);
    }
    RtDocument doc =
        Documents.fromJson(Exchange.parseObject(json, body, from, to - from, "line " + line), null);
    if (upsert) {
      index.update(doc);
    } else {
      index.add(doc);
    }
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
