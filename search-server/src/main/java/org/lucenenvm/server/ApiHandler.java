package org.lucenenvm.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.search.IndexSearcher;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.lucenenvm.realtime.IngestLogFullException;
import org.lucenenvm.realtime.NvmFullException;

/**
 * The HTTP side of the API: matches the route, checks the bearer token of write requests, calls
 * the {@link Endpoints} method and writes its {@link Reply} as JSON. Every failure becomes a JSON
 * error {@code {"error": {"status": ..., "message": ...}}}: {@link ApiException} with its status
 * (and its details as further members of {@code error}, e.g. a 429 from a pool at its flood stage),
 * {@link IllegalArgumentException} (refused input) 400, {@link NvmFullException} 507, other {@link
 * IllegalStateException} 503 (engine closed or failed, or {@link IngestLogFullException}: a full
 * ingest log, retry later, said with a {@code Retry-After} header), anything else 500 (logged).
 *
 * <pre>
 * GET    /health                          GET /metrics           GET /stats
 * GET    /indexes                         list
 * PUT    /indexes/{name}                  create  {"fields": {...}, "partitions": n}
 * GET    /indexes/{name}                  definition and stats
 * DELETE /indexes/{name}                  drop
 * GET    /indexes/{name}/_stats
 * POST   /indexes/{name}/_bulk?op=add|upsert   NDJSON, one document per line
 * GET    /indexes/{name}/_search?q=...&amp;k=10&amp;timeout=500ms
 * POST   /indexes/{name}/docs             add one document (id in the body)
 * GET    /indexes/{name}/docs/{id}        PUT (replace or create)   DELETE
 * </pre>
 */
final class ApiHandler extends Handler.Abstract {
  private static final Logger LOG = Logger.getLogger(ApiHandler.class.getName());

  private final Endpoints endpoints;
  private final IndexRegistry registry;
  private final ObjectMapper json;
  private final ServerMetrics metrics;
  private final byte[] token;
  private final long maxBodyBytes;

  ApiHandler(IndexRegistry registry, ObjectMapper json, ServerMetrics metrics) {
    this.registry = registry;
    this.json = json;
    this.metrics = metrics;
    this.endpoints = new Endpoints(registry, json, metrics);
    String t = registry.config().authToken();
    this.token = t == null ? null : t.getBytes(StandardCharsets.UTF_8);
    this.maxBodyBytes = registry.config().maxBodyBytes();
  }

  /** A matched route: its template (for metrics) and the call it makes. */
  private record Route(String template, Call call) {}

  @FunctionalInterface
  private interface Call {
    Reply run() throws Exception;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    String method = request.getMethod();
    String template = "unmatched";
    Exchange exchange = new Exchange(request, json, maxBodyBytes);
    boolean oversize = exchange.declaresOversizeBody();
    Reply reply;
    try {
      String[] path = segments(request.getHttpURI().getPath());
      Route route = route(method, path, exchange);
      template = route.template();
      if (oversize) {
        throw exchange.oversizeBody();
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        checkToken(request);
      }
      reply = route.call().run();
    } catch (Exception e) {
      reply = errorReply(e);
    }
    metrics.record(template, method, reply.status(), System.nanoTime() - start);
    if (oversize) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    } else if (reply.status() >= 400) {
      drainBody(request);
    }
    write(response, reply, callback);
    return true;
  }

  /**
   * Reads and discards what is left of a refused request's body (declared within the size limit:
   * one declared beyond it is answered at once, unread, on a connection then closed), so the
   * client reads the error on a live connection. Answering with body bytes unread makes Jetty close
   * the connection, and a close with unread bytes in the socket sends a reset, which can discard
   * the error reply before the client reads it. A client that sent {@code Expect: 100-continue} has
   * sent no body yet: reading would tell it to send, so nothing is read.
   */
  private void drainBody(Request request) {
    long length = request.getLength();
    boolean waitsForContinue =
        request.getHeaders().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString());
    if (length > 0 && !waitsForContinue) {
      try {
        Content.Source.consumeAll(request);
      } catch (IOException e) {
        // The client went away; the reply below fails the same way and is handled there.
      }
    }
  }

  private Route route(String method, String[] p, Exchange x) {
    if (p.length == 1 && p[0].equals("health")) {
      return get(method, "/health", endpoints::health);
    }
    if (p.length == 1 && p[0].equals("metrics")) {
      return get(method, "/metrics", endpoints::metrics);
    }
    if (p.length == 1 && p[0].equals("stats")) {
      return get(method, "/stats", endpoints::stats);
    }
    if (p.length == 0 || !p[0].equals("indexes")) {
      throw new ApiException(404, "no such endpoint; see /health, /indexes, /stats, /metrics");
    }
    if (p.length == 1) {
      return get(method, "/indexes", endpoints::listIndexes);
    }
    String name = p[1];
    if (p.length == 2) {
      String t = "/indexes/{name}";
      return switch (method) {
        case "PUT" -> new Route(t, () -> endpoints.createIndex(name, x));
        case "DELETE" -> new Route(t, () -> endpoints.dropIndex(name));
        case "GET" -> onIndex(t, name, endpoints::indexInfo);
        default -> notAllowed(method, t);
      };
    }
    if (p.length == 3) {
      String t = "/indexes/{name}/" + p[2];
      return switch (p[2]) {
        case "_stats" -> only("GET", method, onIndex(t, name, endpoints::indexStats));
        case "_search" -> only("GET", method, onIndex(t, name, i -> endpoints.search(i, x)));
        case "_bulk" -> only("POST", method, onIndex(t, name, i -> endpoints.bulk(i, x)));
        case "docs" -> only("POST", method, onIndex(t, name, i -> endpoints.addDocument(i, x)));
        default -> throw new ApiException(404, "no such endpoint: /indexes/" + name + "/" + p[2]);
      };
    }
    if (p.length == 4 && p[2].equals("docs")) {
      String id = p[3];
      String t = "/indexes/{name}/docs/{id}";
      return switch (method) {
        case "GET" -> onIndex(t, name, i -> endpoints.getDocument(i, id));
        case "PUT" -> onIndex(t, name, i -> endpoints.updateDocument(i, id, x));
        case "DELETE" -> onIndex(t, name, i -> endpoints.deleteDocument(i, id));
        default -> notAllowed(method, t);
      };
    }
    throw new ApiException(404, "no such endpoint");
  }

  @FunctionalInterface
  private interface IndexCall {
    Reply run(OpenIndex index) throws Exception;
  }

  /** A call on an existing index, holding it against a concurrent drop. */
  private Route onIndex(String template, String name, IndexCall call) {
    return new Route(
        template,
        () -> {
          OpenIndex index = registry.get(name);
          index.enter();
          try {
            return call.run(index);
          } finally {
            index.exit();
          }
        });
  }

  private static Route get(String method, String template, Call call) {
    return only("GET", method, new Route(template, call));
  }

  /** {@code route} if the request's method is {@code allowed}, else a 405. */
  private static Route only(String allowed, String method, Route route) {
    return method.equals(allowed) ? route : notAllowed(method, route.template());
  }

  private static Route notAllowed(String method, String template) {
    throw new ApiException(405, "method " + method + " not allowed on " + template);
  }

  private void checkToken(Request request) {
    if (token == null) {
      return;
    }
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new ApiException(401, "write requests need the header 'Authorization: Bearer <token>'");
    }
    byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      throw new ApiException(403, "wrong bearer token");
    }
  }

  private static String[] segments(String rawPath) {
    String trimmed = rawPath.replaceAll("^/+|/+$", "");
    if (trimmed.isEmpty()) {
      return new String[0];
    }
    String[] parts = trimmed.split("/+");
    for (int i = 0; i < parts.length; i++) {
      parts[i] = URLDecoder.decode(parts[i].replace("+", "%2B"), StandardCharsets.UTF_8);
    }
    return parts;
  }

  private static Reply errorReply(Exception e) {
    int status = statusOf(e);
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof IndexSearcher.TooManyClauses) {
      message = "query too large: " + message + " (max-clause-count)";
    }
    if (status == 500) {
      LOG.log(Level.WARNING, "request failed", e);
    }
    Map<String, Object> error = BulkIngest.errorBody(status, message);
    if (e instanceof ApiException api) {
      error.putAll(api.details());
    }
    int retryAfter = e instanceof IngestLogFullException ? Reply.LOG_FULL_RETRY_AFTER_SECONDS : 0;
    return new Reply(status, Map.of("error", error), retryAfter);
  }

  /** The status a failure answers (see the class comment); 500 for anything unexpected. */
  static int statusOf(Exception e) {
    if (e instanceof ApiException api) {
      return api.status();
    }
    if (e instanceof IllegalArgumentException || e instanceof IndexSearcher.TooManyClauses) {
      return 400;
    }
    if (e instanceof NvmFullException) {
      return 507;
    }
    if (e instanceof IllegalStateException) {
      return 503;
    }
    return 500;
  }

  private void write(Response response, Reply reply, Callback callback) {
    byte[] bytes;
    String contentType;
    try {
      if (reply.body() instanceof Reply.PlainText text) {
        bytes = text.text().getBytes(StandardCharsets.UTF_8);
        contentType = text.contentType();
      } else {
        bytes = json.writeValueAsBytes(reply.body());
        contentType = "application/json";
      }
    } catch (Exception e) {
      LOG.log(Level.WARNING, "cannot serialize a reply", e);
      callback.failed(e);
      return;
    }
    response.setStatus(reply.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    if (reply.status() == 401) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
    }
    if (reply.retryAfterSeconds() > 0) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(reply.retryAfterSeconds()));
    }
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }
}
