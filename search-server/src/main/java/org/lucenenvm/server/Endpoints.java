package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;
import org.lucenenvm.realtime.CacheOutcome;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtHit;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.realtime.RtSearchResult;
import org.lucenenvm.realtime.RtSnapshot;
import org.lucenenvm.realtime.StatisticsMode;

/**
 * The operations behind the HTTP API, one method per endpoint, each returning a {@link Reply}.
 * {@link ApiHandler} does the HTTP side (routing, token, errors).
 */
final class Endpoints {
  private final IndexRegistry registry;
  private final ObjectMapper json;
  private final ServerMetrics metrics;
  private final BulkIngest bulk;
  private final long startNanos = System.nanoTime();

  Endpoints(IndexRegistry registry, ObjectMapper json, ServerMetrics metrics) {
    this.registry = registry;
    this.json = json;
    this.metrics = metrics;
    this.bulk = new BulkIngest(json, registry.config().maxDocumentBytes());
  }

  Reply health() {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, String> unavailable = registry.unavailable();
    out.put("status", unavailable.isEmpty() ? "ok" : "degraded");
    out.put("indexes", registry.list().size());
    out.put("unavailable", unavailable);
    out.put("uptime_s", (System.nanoTime() - startNanos) / 1_000_000_000L);
    return Reply.ok(out);
  }

  Reply metrics() throws IOException {
    return Reply.ok(
        new Reply.PlainText(metrics.contentType(), metrics.scrape()));
  }

  Reply listIndexes() {
    List<IndexDefinition> out = new ArrayList<>();
    registry.list().forEach(i -> out.add(i.definition()));
    return Reply.ok(Map.of("indexes", out, "unavailable", registry.unavailable()));
  }

  Reply stats() throws IOException {
    List<IndexStats> out = new ArrayList<>();
    for (OpenIndex index : registry.list()) {
      index.enter();
      try {
        out.add(IndexStats.of(index));
      } finally {
        index.exit();
      }
    }
    return Reply.ok(Map.of("indexes", out));
  }

  /** Body: {@code {"fields": {"title": "text"}, "partitions": 2}}; both optional per config. */
  Reply createIndex(String name, Exchange exchange) throws IOException {
    IndexDefinition.checkName(name);
    byte[] body = exchange.body();
    JsonNode spec =
        body.length == 0 ? json.createObjectNode() : Exchange.parseObject(json, body, 0, body.length, "request body");
    for (var it = spec.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("fields") && !key.equals("partitions")) {
        throw new ApiException(400, "unknown member '" + key + "'; expected 'fields', 'partitions'");
      }
    }
    Map<String, String> fields = fields(spec.get("fields"));
    int partitions = registry.config().partitions();
    JsonNode p = spec.get("partitions");
    if (p != null) {
      if (!p.canConvertToExactIntegral() || !p.canConvertToInt()) {
        throw new ApiException(400, "'partitions' must be an integer, got " + p);
      }
      partitions = p.intValue();
    }
    OpenIndex index = registry.create(new IndexDefinition(name, fields, partitions));
    return new Reply(201, index.definition());
  }

  private Map<String, String> fields(JsonNode node) {
    if (node == null || node.isNull()) {
      if (registry.config().defaultSchema() == null) {
        throw new ApiException(400, "missing 'fields' (the server has no default schema)");
      }
      return Schemas.toMap(registry.config().defaultSchema());
    }
    if (!node.isObject()) {
      throw new ApiException(400, "'fields' must be an object of field name to type");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (!e.getValue().isTextual()) {
        throw new ApiException(400, "type of field '" + e.getKey() + "' must be a string");
      }
      fields.put(e.getKey(), e.getValue().textValue());
    }
    return fields;
  }

  Reply dropIndex(String name) throws IOException {
    registry.drop(name);
    return Reply.ok(Map.of("dropped", name));
  }

  Reply indexInfo(OpenIndex index) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("definition", index.definition());
    out.put("stats", IndexStats.of(index));
    return Reply.ok(out);
  }

  Reply indexStats(OpenIndex index) throws IOException {
    return Reply.ok(IndexStats.of(index));
  }

  Reply bulk(OpenIndex index, Exchange exchange) throws IOException {
    String op = exchange.parameter("op");
    if (op != null && !op.equals("add") && !op.equals("upsert")) {
      throw new ApiException(400, "parameter 'op' must be 'add' or 'upsert', got '" + op + "'");
    }
    return bulk.ingest(index, exchange.body(), "upsert".equals(op));
  }

  Reply addDocument(OpenIndex index, Exchange exchange) throws IOException {
    RtDocument doc = Documents.fromJson(documentBody(exchange), null);
    index.add(doc);
    index.ingested().mark(1);
    return new Reply(201, Map.of("id", doc.id(), "result", "created"));
  }

  Reply updateDocument(OpenIndex index, String id, Exchange exchange) throws IOException {
    RtDocument doc = Documents.fromJson(documentBody(exchange), id);
    index.update(doc);
    index.ingested().mark(1);
    return Reply.ok(Map.of("id", id, "result", "updated"));
  }

  private JsonNode documentBody(Exchange exchange) throws IOException {
    byte[] body = exchange.body();
    int max = registry.config().maxDocumentBytes();
    if (body.length > max) {
      throw new ApiException(413, "document of " + body.length + " bytes exceeds the limit of " + max);
    }
    return Exchange.parseObject(json, body, 0, body.length, "request body");
  }

  Reply getDocument(OpenIndex index, String id) throws IOException {
    RtDocument doc = index.get(id);
    if (doc == null) {
      throw new ApiException(404, "document '" + id + "' not found in index '" + index.definition().name() + "'");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", doc.id());
    out.put("fields", doc.fields());
    return Reply.ok(out);
  }

  Reply deleteDocument(OpenIndex index, String id) {
    if (!index.delete(id)) {
      throw new ApiException(404, "document '" + id + "' not found in index '" + index.definition().name() + "'");
    }
    return Reply.ok(Map.of("id", id, "result", "deleted"));
  }

  /**
   * {@code ?q=<Lucene query syntax>&k=10&timeout=500ms&cache=false}: the top hits, or those
   * collected within the time budget ({@code timed_out: true}); {@code cache=false} bypasses the
   * result cache (same answer, computed in full). {@code cache} says how the result cache took
   * part: {@code hit}, {@code partial_hit} (Partial Type I), {@code miss} or {@code bypass} (no
   * cache, {@code cache=false}, a query the cache cannot key, or exact statistics); {@code
   * statistics} says what the scores were computed with: {@code exact} (every document) or {@code
   * epoch} (the statistics epoch's segments, see {@link RtSnapshot#statistics()}).
   */
  Reply search(OpenIndex index, Exchange exchange) throws IOException {
    long start = System.nanoTime();
    QueryLimits limits = registry.config().queryLimits();
    Duration budget = SearchBudget.of(exchange.parameter("timeout"), limits);
    Query query = index.parse(exchange.parameter("q"), limits);
    int k = exchange.intParameter("k", 10, 1, registry.config().maxResults());
    boolean useCache = exchange.booleanParameter("cache", true);
    RtSearchResult result =
        index.search(
            RtSearchRequest.of(query, k)
                .withTimeout(SearchBudget.startingNow(budget))
                .withCache(useCache));
    List<Map<String, Object>> hits = new ArrayList<>(result.hits().size());
    for (RtHit hit : result.hits()) {
      hits.add(Documents.toJson(hit));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("total_hits", result.totalHits().value());
    out.put("total_hits_exact", result.totalHits().relation() == TotalHits.Relation.EQUAL_TO);
    out.put("took_us", (System.nanoTime() - start) / 1000);
    out.put("timed_out", result.timedOut());
    out.put("cache", cacheOutcomeName(result.cache()));
    out.put("statistics", result.statistics() == StatisticsMode.PER_EPOCH ? "epoch" : "exact");
    out.put("hits", hits);
    return Reply.ok(out);
  }

  /** The {@code cache} field of a {@code _search} answer. */
  static String cacheOutcomeName(CacheOutcome outcome) {
    return switch (outcome) {
      case HIT -> "hit";
      case PARTIAL_HIT -> "partial_hit";
      case MISS -> "miss";
      case BYPASSED -> "bypass";
    };
  }
}
