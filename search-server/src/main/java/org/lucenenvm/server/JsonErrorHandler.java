package org.lucenenvm.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Writes the errors Jetty produces itself (saturation, malformed request line, URI or headers,
 * header and URI size limits) in the API's JSON error form, whatever the method and whatever the
 * client accepts (Jetty's own handler writes no body for a {@code PUT} or {@code DELETE}).
 */
final class JsonErrorHandler extends ErrorHandler {
  private final ObjectMapper json;

  JsonErrorHandler(ObjectMapper json) {
    this.json = json;
  }

  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(
      Request request, Response response, int code, String message, Throwable cause, Callback callback)
      throws IOException {
    String text = message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
    byte[] body = json.writeValueAsBytes(Map.of("error", BulkIngest.errorBody(code, text)));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
