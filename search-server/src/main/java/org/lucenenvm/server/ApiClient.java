package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A small client of the server's HTTP API (java.net.http), used by the demo and the load test.
 * Every call returns the parsed JSON body; a non-2xx answer throws {@link ApiException} with the
 * server's status and error message.
 */
public final class ApiClient implements AutoCloseable {
  private final HttpClient http;
  private final URI base;
  private final String token;
  private final ObjectMapper json = new ObjectMapper();

  /** A client of the server at {@code base}; {@code token} may be null. */
  public ApiClient(URI base, String token) {
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    this.base = base;
    this.token = token;
  }

  /** Sends one request; {@code body} may be null. */
  public JsonNode call(String method, String path, String body) throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response;
    try {
      response = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    JsonNode node = json.readTree(response.body());
    if (response.statusCode() / 100 != 2) {
      String message = node.path("error").path("message").asText(response.body());
      throw new ApiException(response.statusCode(), message);
    }
    return node;
  }

  public JsonNode createIndex(String name, String spec) throws IOException {
    return call("PUT", "indexes/" + name, spec);
  }

  public JsonNode dropIndex(String name) throws IOException {
    return call("DELETE", "indexes/" + name, null);
  }

  public JsonNode bulk(String index, String ndjson) throws IOException {
    return call("POST", "indexes/" + index + "/_bulk", ndjson);
  }

  public JsonNode add(String index, String documentJson) throws IOException {
    return call("POST", "indexes/" + index + "/docs", documentJson);
  }

  public JsonNode get(String index, String id) throws IOException {
    return call("GET", "indexes/" + index + "/docs/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
  }

  public JsonNode delete(String index, String id) throws IOException {
    return call("DELETE", "indexes/" + index + "/docs/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
  }

  public JsonNode search(String index, String query, int k) throws IOException {
    return call(
        "GET",
        "indexes/" + index + "/_search?k=" + k + "&q=" + URLEncoder.encode(query, StandardCharsets.UTF_8),
        null);
  }

  public JsonNode stats(String index) throws IOException {
    return call("GET", "indexes/" + index + "/_stats", null);
  }

  public JsonNode indexes() throws IOException {
    return call("GET", "indexes", null);
  }

  @Override
  public void close() {
    http.shutdownNow();
  }
}
