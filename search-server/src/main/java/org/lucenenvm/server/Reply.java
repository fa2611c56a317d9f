package org.lucenenvm.server;

/**
 * What an endpoint answers: a status and a body, serialized as JSON unless it is a {@link
 * PlainText}.
 *
 * @param status HTTP status code
 * @param body the JSON body (maps, lists, records) or a {@link PlainText}
 * @param retryAfterSeconds for a refusal that a later retry can overcome (a full ingest log), the
 *     {@code Retry-After} header's seconds; 0 for none
 */
record Reply(int status, Object body, int retryAfterSeconds) {
  /**
   * Seconds a client is told to wait before retrying a write refused by a full ingest log: about
   * what the pipeline takes to flush, engrave and checkpoint a segment and so reclaim log space.
   */
  static final int LOG_FULL_RETRY_AFTER_SECONDS = 1;

  Reply(int status, Object body) {
    this(status, body, 0);
  }

  static Reply ok(Object body) {
    return new Reply(200, body);
  }

  /** A non-JSON body with its content type. */
  record PlainText(String contentType, String text) {}
}
