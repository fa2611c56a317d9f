package org.lucenenvm.server;

import java.util.Map;

/**
 * A request the server refuses, with the HTTP status to answer and a message naming the problem.
 * The response body is {@code {"error": {"status": 404, "message": "..."}}}, plus the exception's
 * {@link #details()} as further members of {@code error}.
 */
public class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient Map<String, Object> details;

  /** Creates the exception. */
  public ApiException(int status, String message) {
    this(status, message, null, Map.of());
  }

  /** Creates the exception keeping its cause. */
  public ApiException(int status, String message, Throwable cause) {
    this(status, message, cause, Map.of());
  }

  /**
   * Creates the exception keeping its cause, with {@code details} (figures a client may act on) to
   * add to the error body.
   */
  public ApiException(int status, String message, Throwable cause, Map<String, Object> details) {
    super(message, cause);
    this.status = status;
    this.details = Map.copyOf(details);
  }

  /** The HTTP status code. */
  public int status() {
    return status;
  }

  /** Further members of the error body (empty for most refusals). */
  public Map<String, Object> details() {
    return details;
  }
}
