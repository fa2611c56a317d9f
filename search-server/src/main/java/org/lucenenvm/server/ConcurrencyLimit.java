package org.lucenenvm.server;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Bounds the requests handled at once with Jetty's {@link QoSHandler}, queueing none: a request
 * beyond the limit is answered at once with 503 and a message saying so, rather than waiting.
 */
final class ConcurrencyLimit extends QoSHandler {
  private final int limit;

  ConcurrencyLimit(int limit) {
    this.limit = limit;
    setMaxRequestCount(limit);
    setMaxSuspendedRequestCount(0);
  }

  @Override
  protected void reject(Request request, Response response, Callback callback, int status) {
    Response.writeError(
        request,
        response,
        callback,
        status,
        "server saturated: " + limit + " requests already in progress; retry later");
  }
}
