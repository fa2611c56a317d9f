package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.lucenenvm.realtime.DurabilityMode;

/** A real server on an ephemeral loopback port and a small HTTP client for it. */
final class LiveServer implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final SearchServer server;
  final HttpClient http = HttpClient.newHttpClient();
  String token;

  LiveServer(ServerConfig config) throws Exception {
    this.server = new SearchServer(config).start();
    this.token = config.authToken();
  }

  /** Small, fast defaults for tests: 8 MiB pools, 50-doc segments, graceful mode. */
  static ServerConfig.Builder config(Path dataDir) {
    return ServerConfig.builder()
        .port(0)
        .dataDir(dataDir)
        .poolSizeBytes(16L << 20)
        .segmentSize(50)
        .dramBudgetBytes(1L << 20)
        .mode(DurabilityMode.GRACEFUL);
  }

  /** A response: status and body. */
  record Res(int status, String body, HttpResponse<String> raw) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    String errorMessage() throws IOException {
      return json().path("error").path("message").asText();
    }
  }

  Res send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Res(r.statusCode(), r.body(), r);
  }

  Res get(String path) throws Exception {
    return send("GET", path, null);
  }

  Res search(String index, String q, int k) throws Exception {
    return get("/indexes/" + index + "/_search?k=" + k + "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8));
  }

  Res createIndex(String name, String spec) throws Exception {
    return send("PUT", "/indexes/" + name, spec);
  }

  /** A response read off a raw socket: status, header block and body. */
  record RawRes(int status, String head, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  /**
   * Sends {@code requestLine} (e.g. {@code GET /indexes/%2e%2e HTTP/1.1}) and {@code headers} as
   * they are, over a raw socket (an HTTP client library would normalise the path), with {@code
   * Connection: close}, and reads the whole response.
   */
  RawRes raw(String requestLine, String... headers) throws IOException {
    StringBuilder request = new StringBuilder(requestLine).append("\r\nHost: 127.0.0.1\r\n");
    for (String h : headers) {
      request.append(h).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (Socket socket = connect()) {
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
      return readResponse(socket.getInputStream());
    }
  }

  /** A raw connection to the server, whose reads time out after 30 s. */
  Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout(30_000);
    return socket;
  }

  /**
   * Reads one response off a raw connection: the header block, then {@code Content-Length} bytes
   * of body (or everything up to the end of the stream when there is no such header), leaving the
   * connection positioned at the next response.
   */
  static RawRes readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream headBytes = new ByteArrayOutputStream();
    while (!endsWithBlankLine(headBytes)) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException(
            "connection closed after " + headBytes.size() + " bytes of a response head");
      }
      headBytes.write(b);
    }
    String head = headBytes.toString(StandardCharsets.UTF_8).strip();
    long length = -1;
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Long.parseLong(line.substring("content-length:".length()).trim());
      }
    }
    byte[] body = length < 0 ? in.readAllBytes() : in.readNBytes(Math.toIntExact(length));
    int status = Integer.parseInt(head.split(" ", 3)[1]);
    return new RawRes(status, head, new String(body, StandardCharsets.UTF_8));
  }

  private static boolean endsWithBlankLine(ByteArrayOutputStream bytes) {
    byte[] b = bytes.toByteArray();
    int n = b.length;
    return n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
  }

  @Override
  public void close() throws IOException {
    http.shutdownNow();
    server.close();
  }
}
