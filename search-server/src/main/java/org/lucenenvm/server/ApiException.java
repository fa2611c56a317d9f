package org.lucenenvm.server;

/**
 * A request the server refuses, with the HTTP status to answer and a message naming the problem.
 * The response body is {@code {"error": {"status": 404, "message": "..."}}}.
 */
public class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  /** Creates the exception. */
  public ApiException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** Creates the exception keeping its cause. */
  public ApiException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status code. */
  public int status() {
    return status;
  }
}
