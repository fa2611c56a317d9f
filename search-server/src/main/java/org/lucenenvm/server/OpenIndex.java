package org.lucenenvm.server;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.realtime.FieldKind;
import org.lucenenvm.realtime.FloodStageException;
import org.lucenenvm.realtime.IngestLogFullException;
import org.lucenenvm.realtime.NvmUsage;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtSchema;
import org.lucenenvm.realtime.RtSearchRequest;
import org.lucenenvm.realtime.RtSearchResult;
import org.lucenenvm.store.NvmDirectory;

/**
 * One index: its pool ({@link NvmDirectory}), its engine ({@link RtEngine}), the query
 * parser set-up for its schema and its ingest and query meters. Requests use it between {@link
 * #enter()} and {@link #exit()}; {@link #close()} waits for them, so dropping an index never pulls
 * the engine from under a request.
 */
public final class OpenIndex implements Closeable {
  private final IndexDefinition definition;
  private final RtSchema schema;
  private final NvmDirectory directory;
  private final RtEngine engine;
  private final long openNanos;
  private final Analyzer queryAnalyzer;
  private final String[] defaultFields;
  private final RateMeter ingested = new RateMeter();
  private final RateMeter queries = new RateMeter();
  private final ReentrantReadWriteLock users = new ReentrantReadWriteLock();
  private boolean closed;

  OpenIndex(
      IndexDefinition definition,
      NvmDirectory directory,
      RtEngine engine,
      Analyzer textAnalyzer,
      long openNanos) {
    this.definition = definition;
    this.directory = directory;
    this.engine = engine;
    this.openNanos = openNanos;
    this.schema = definition.schema();
    Map<String, Analyzer> perField = new HashMap<>();
    perField.put(RtSchema.ID_FIELD, new KeywordAnalyzer());
    schema
        .fields()
        .forEach(
            (name, kind) -> {
              if (kind != FieldKind.TEXT) {
                perField.put(name, new KeywordAnalyzer());
              }
            });
    this.queryAnalyzer = new PerFieldAnalyzerWrapper(textAnalyzer, perField);
    List<String> text = fieldsOf(schema, FieldKind.TEXT);
    this.defaultFields =
        (text.isEmpty() ? fieldsOf(schema, FieldKind.KEYWORD) : text).toArray(new String[0]);
  }

  private static List<String> fieldsOf(RtSchema schema, FieldKind kind) {
    return schema.fields().entrySet().stream()
        .filter(e -> e.getValue() == kind)
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Starts a request on this index; 404 if it was dropped meanwhile. Pair with {@link #exit()}. */
  void enter() {
    users.readLock().lock();
    if (closed) {
      users.readLock().unlock();
      throw new ApiException(404, "index '" + definition.name() + "' does not exist");
    }
  }

  /** Ends a request started with {@link #enter()}. */
  void exit() {
    users.readLock().unlock();
  }

  /** The index's definition. */
  public IndexDefinition definition() {
    return definition;
  }

  /** The engine (usable directly, without HTTP). */
  public RtEngine engine() {
    return engine;
  }

  /** The NVM directory over the index's pool file. */
  public NvmDirectory directory() {
    return directory;
  }

  /** Nanoseconds it took to open (or reopen) the index from its pool. */
  public long openNanos() {
    return openNanos;
  }

  RateMeter ingested() {
    return ingested;
  }

  RateMeter queries() {
    return queries;
  }

  /**
   * Parses {@code text} with Lucene's classic query syntax over the schema's text fields (keyword
   * fields and {@code id} match exact values), within {@code limits} ({@link BoundedQueryParser}).
   * Refuses syntax errors, undeclared fields and queries over the limits (400).
   */
  public Query parse(String text, QueryLimits limits) {
    if (text == null || text.isBlank()) {
      throw new ApiException(400, "missing query: pass q=<Lucene query syntax>");
    }
    if (defaultFields.length == 0) {
      throw new ApiException(400, "index '" + definition.name() + "' has no searchable field");
    }
    QueryParser parser = new BoundedQueryParser(defaultFields, queryAnalyzer, limits);
    Query query;
    try {
      query = parser.parse(text);
    } catch (ParseException | IndexSearcher.TooManyClauses e) {
      throw new ApiException(400, "query syntax error: " + firstLine(e.getMessage()));
    }
    query.visit(
        new QueryVisitor() {
          @Override
          public boolean acceptField(String field) {
            if (!RtSchema.ID_FIELD.equals(field) && schema.kindOf(field) == null) {
              throw new ApiException(
                  400, "query uses field '" + field + "' which the schema does not declare");
            }
            return true;
          }

          @Override
          public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
            return this;
          }
        });
    return query;
  }

  private static String firstLine(String message) {
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  /** Runs {@code request} ({@link RtEngine#search}) and counts it. */
  public RtSearchResult search(RtSearchRequest request) throws IOException {
    RtSearchResult result = engine.search(request);
    queries.mark(1);
    return result;
  }

  /** Adds {@code doc} ({@link RtEngine#add}); see {@link #write} for a full log or pool. */
  public void add(RtDocument doc) {
    write(() -> {
      engine.add(doc);
      return true;
    });
  }

  /** Adds or replaces {@code doc} ({@link RtEngine#update}); see {@link #write}. */
  public void update(RtDocument doc) {
    write(() -> {
      engine.update(doc);
      return true;
    });
  }

  /** Deletes {@code id} ({@link RtEngine#delete}); returns whether it existed. See {@link #write}. */
  public boolean delete(String id) {
    return write(() -> engine.delete(id));
  }

  /**
   * Runs one engine write; an {@link IngestLogFullException} (the write was not applied, a retry
   * may succeed) is rethrown with this index's name and what to do, and answers 503; a {@link
   * FloodStageException} (not applied either; the pool has no room to spare) becomes a 429 naming
   * the index, its pool file, the used and total bytes and the flood stage, also as members of the
   * error body.
   */
  private <T> T write(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (FloodStageException e) {
      NvmUsage usage = e.usage();
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("index", definition.name());
      details.put("pool", usage.pool());
      details.put("pool_used_bytes", usage.usedBytes());
      details.put("pool_total_bytes", usage.totalBytes());
      details.put("flood_stage", usage.floodStage());
      throw new ApiException(
          429,
          "index '" + definition.name() + "' refuses adds and updates: " + e.getMessage()
              + "; delete documents to free room, or raise --flood-stage",
          e,
          details);
    } catch (IngestLogFullException e) {
      throw new IngestLogFullException(
          "index '" + definition.name() + "' cannot take this write now, its ingest log is full"
              + " (nothing acknowledged was lost; retry shortly; if it persists, the pipeline is"
              + " not keeping up: give the index a larger log, --log-size, or writes a longer wait,"
              + " --log-full-timeout): " + e.getMessage(),
          e);
    }
  }

  /** The stored document with {@code id}, or null. */
  public RtDocument get(String id) throws IOException {
    return engine.get(id);
  }

  /**
   * Closes the engine (GRACEFUL: everything is engraved and the manifest written) and the pool,
   * after the requests in flight finish.
   */
  @Override
  public void close() throws IOException {
    users.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      IOUtils.close(engine, directory);
    } finally {
      users.writeLock().unlock();
    }
  }
}
