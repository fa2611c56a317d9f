package org.lucenenvm.opensearch.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A tiny JSON-over-HTTP client for one node's REST port on 127.0.0.1. */
final class Rest {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A response: status code and parsed body. */
  record Response(int status, JsonNode body) {
    Response ok() {
      if (status >= 300) {
        throw new AssertionError("HTTP " + status + ": " + body);
      }
      return this;
    }
  }

  private final int port;

  Rest(int port) {
    this.port = port;
  }

  Response get(String path) throws IOException {
    return send("GET", path, null, "application/json");
  }

  Response put(String path, String json) throws IOException {
    return send("PUT", path, json, "application/json");
  }

  Response post(String path, String json) throws IOException {
    return send("POST", path, json, "application/json");
  }

  Response delete(String path) throws IOException {
    return send("DELETE", path, null, "application/json");
  }

  Response bulk(String path, String ndjson) throws IOException {
    return send("POST", path, ndjson, "application/x-ndjson");
  }

  /** True if the node answers on its HTTP port. */
  boolean isUp() {
    try {
      return get("/").status() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  private Response send(String method, String path, String body, String contentType)
      throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofMinutes(3))
            .header("Content-Type", contentType)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String text = response.body();
      JsonNode json = text.isEmpty() ? JSON.nullNode() : JSON.readTree(text);
      return new Response(response.statusCode(), json);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
