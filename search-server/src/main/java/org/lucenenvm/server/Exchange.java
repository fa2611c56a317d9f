package org.lucenenvm.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * One request as the endpoints see it: its query parameters and its body, read with the server's
 * size limit (413 beyond) and parsed as JSON on demand (400 naming the syntax error).
 */
final class Exchange {
  private final Request request;
  private final ObjectMapper json;
  private final long maxBodyBytes;
  private Fields parameters;

  Exchange(Request request, ObjectMapper json, long maxBodyBytes) {
    this.request = request;
    this.json = json;
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The query parameter {@code name}, or null. */
  String parameter(String name) {
    if (parameters == null) {
      parameters = Request.extractQueryParameters(request);
    }
    return parameters.getValue(name);
  }

  /** The integer query parameter {@code name} within {@code [min, max]}, or {@code fallback}. */
  int intParameter(String name, int fallback, int min, int max) {
    String value = parameter(name);
    if (value == null) {
      return fallback;
    }
    int parsed;
    try {
      parsed = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new ApiException(400, "parameter '" + name + "' must be an integer, got '" + value + "'");
    }
    if (parsed < min || parsed > max) {
      throw new ApiException(
          400, "parameter '" + name + "' must be in " + min + ".." + max + ", got " + parsed);
    }
    return parsed;
  }

  /** Boolean query parameter {@code name} ({@code true} or {@code false}), or {@code fallback}. */
  boolean booleanParameter(String name, boolean fallback) {
    String value = parameter(name);
    if (value == null) {
      return fallback;
    }
    return switch (value.trim()) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new ApiException(
              400, "parameter '" + name + "' must be true or false, got '" + value + "'");
    };
  }

  /**
   * Whether the request declares (Content-Length) a body larger than the limit: such a request is
   * answered with {@link #oversizeBody()} before any of its body is read.
   */
  boolean declaresOversizeBody() {
    return request.getLength() > maxBodyBytes;
  }

  /** The 413 of a body declared larger than the limit. */
  ApiException oversizeBody() {
    return new ApiException(
        413,
        "request body of "
            + request.getLength()
            + " bytes (Content-Length) exceeds the limit of "
            + maxBodyBytes
            + " bytes (max-body)");
  }

  /**
   * The whole body, of at most the limit (a larger declared one never gets here, see {@link
   * #declaresOversizeBody()}); 413 if one sent without a length turns out larger.
   */
  byte[] body() throws IOException {
    long declared = request.getLength();
    ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Request.asInputStream(request)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        if (out.size() + (long) n > maxBodyBytes) {
          throw tooLarge();
        }
        out.write(buffer, 0, n);
      }
    }
    return out.toByteArray();
  }

  private ApiException tooLarge() {
    return new ApiException(413, "request body exceeds the limit of " + maxBodyBytes + " bytes");
  }

  /** Parses {@code length} bytes at {@code offset} as one JSON object, or throws a 400. */
  static JsonNode parseObject(ObjectMapper json, byte[] bytes, int offset, int length, String what)
      throws IOException {
    if (length == 0) {
      throw new ApiException(400, what + " is empty; expected a JSON object");
    }
    JsonNode node;
    try {
      node = json.readTree(bytes, offset, length);
    } catch (JsonProcessingException e) {
      throw new ApiException(400, "malformed JSON in " + what + ": " + describe(e));
    }
    if (node == null || !node.isObject()) {
      throw new ApiException(
          400, what + " must be a JSON object, got " + (node == null ? "nothing" : node.getNodeType()));
    }
    return node;
  }

  private static String describe(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    int nl = message.indexOf('\n');
    message = nl < 0 ? message : message.substring(0, nl);
    return e.getLocation() == null
        ? message
        : message + " (column " + e.getLocation().getColumnNr() + ")";
  }
}
