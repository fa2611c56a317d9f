package org.lucenenvm.server;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.util.logging.Logger;
import org.apache.lucene.search.IndexSearcher;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The search server: the {@link IndexRegistry} (one real-time engine per index, each over its own
 * NVM pool) behind a JSON HTTP API on Jetty 12, requests handled on virtual threads. Embeddable:
 *
 * <pre>{@code
 * try (SearchServer server = new SearchServer(ServerConfig.builder().port(0).build()).start()) {
 *   int port = server.port();               // the API at http://127.0.0.1:<port>/
 *   server.indexes().get("docs").engine();  // the same engines, without HTTP
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops accepting requests, lets the ones in flight finish, then closes every
 * index (GRACEFUL mode: the next start reopens them from their pools without re-indexing).
 */
public final class SearchServer implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(SearchServer.class.getName());
  private static final long STOP_TIMEOUT_MILLIS = 30_000;

  /**
   * Jetty's default URI compliance, plus encoded {@code /}, {@code .}, {@code %} and backslash
   * inside a segment, so any id is addressable as one percent-encoded segment ({@code
   * /indexes/x/docs/a%2Fb} is the document {@code a/b}). Safe here: {@link ApiHandler} splits the
   * raw path on {@code /} and decodes each segment once; nothing maps a path to a file.
   */
  private static final UriCompliance ID_SEGMENTS =
      UriCompliance.DEFAULT.with(
          "lucene-nvm ids",
          UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
          UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT,
          UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
          UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS);

  private final ServerConfig config;
  private final ObjectMapper json;
  private Server jetty;
  private ServerConnector connector;
  private IndexRegistry registry;
  private boolean closed;

  /** A server for {@code config}; nothing runs until {@link #start()}. */
  public SearchServer(ServerConfig config) {
    this.config = config;
    this.json = newObjectMapper();
  }

  /** The JSON mapper settings of the API: strict (trailing tokens and duplicate keys refused). */
  static ObjectMapper newObjectMapper() {
    return JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();
  }

  /** Opens (or reopens) every index and starts serving; returns this. */
  public synchronized SearchServer start() throws Exception {
    if (jetty != null) {
      throw new IllegalStateException("server already started");
    }
    IndexSearcher.setMaxClauseCount(config.queryLimits().maxClauseCount());
    registry = IndexRegistry.open(config, json);
    try {
      QueuedThreadPool threads = new QueuedThreadPool();
      threads.setName("http");
      VirtualThreadPool virtualThreads = new VirtualThreadPool();
      virtualThreads.setName("http-vt");
      virtualThreads.setMaxConcurrentTasks(config.maxConcurrentRequests() * 2 + 16);
      threads.setVirtualThreadsExecutor(virtualThreads);
      jetty = new Server(threads);
      HttpConfiguration http = new HttpConfiguration();
      http.setSendServerVersion(false);
      http.setUriCompliance(ID_SEGMENTS);
      connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
      connector.setHost(config.host());
      connector.setPort(config.port());
      jetty.addConnector(connector);
      ConcurrencyLimit limit = new ConcurrencyLimit(config.maxConcurrentRequests());
      limit.setHandler(new ApiHandler(registry, json, new ServerMetrics(registry)));
      jetty.setHandler(new GracefulHandler(limit));
      jetty.setErrorHandler(new JsonErrorHandler(json));
      jetty.setStopTimeout(STOP_TIMEOUT_MILLIS);
      jetty.start();
    } catch (Exception e) {
      closeQuietly();
      throw e;
    }
    if (!config.bindsLoopbackOnly()) {
      LOG.warning(
          "listening on "
              + config.host()
              + ", reachable from other machines"
              + (config.authToken() == null ? ", and write endpoints need no token" : ""));
    }
    return this;
  }

  private void closeQuietly() {
    try {
      close();
    } catch (Exception suppressed) {
      LOG.warning("cleanup after a failed start failed: " + suppressed);
    }
  }

  /** The port the server listens on (the chosen one when configured with port 0). */
  public int port() {
    if (connector == null) {
      throw new IllegalStateException("server not started");
    }
    return connector.getLocalPort();
  }

  /** The base URI of the API. */
  public URI uri() {
    String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    return URI.create("http://" + host + ":" + port() + "/");
  }

  /** The indexes, usable directly (without HTTP). */
  public IndexRegistry indexes() {
    if (registry == null) {
      throw new IllegalStateException("server not started");
    }
    return registry;
  }

  /** The configuration. */
  public ServerConfig config() {
    return config;
  }

  /**
   * Stops the HTTP server (requests in flight finish, for up to 30 s), then closes every index. In
   * GRACEFUL mode this persists everything acknowledged. Idempotent.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (jetty != null) {
        jetty.stop();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the HTTP server", e);
    } catch (Exception e) {
      throw new IOException("stopping the HTTP server failed", e);
    } finally {
      if (registry != null) {
        registry.close();
      }
    }
  }

  /** Registers a JVM shutdown hook (SIGTERM, Ctrl-C) that closes this server gracefully. */
  public SearchServer closeOnShutdown() {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    close();
                  } catch (Exception e) {
                    System.err.println("lucene-nvm server: shutdown failed: " + e);
                  }
                },
                "search-server-shutdown"));
    return this;
  }
}
