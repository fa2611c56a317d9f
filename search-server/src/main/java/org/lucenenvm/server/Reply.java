package org.lucenenvm.server;

/**
 * What an endpoint answers: a status and a body, serialized as JSON unless it is a {@link
 * PlainText}.
 *
 * @param status HTTP status code
 * @param body the JSON body (maps, lists, records) or a {@link PlainText}
 */
record Reply(int status, Object body) {
  static Reply ok(Object body) {
    return new Reply(200, body);
  }

  /** A non-JSON body with its content type. */
  record PlainText(String contentType, String text) {}
}
