package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A pool file that cannot be opened as asked: not a pool, a different format version, a damaged
 * header, truncated, in use by another process, or too small and unable to grow (no room on the file
 * system). The message names the file and the problem. The pool is left as it was.
 */
public final class InvalidPoolException extends IOException {
  private final Path pool;

  public InvalidPoolException(Path pool, String problem) {
    super("NVM pool " + pool + ": " + problem);
    this.pool = pool;
  }

  public InvalidPoolException(Path pool, String problem, Throwable cause) {
    this(pool, problem);
    initCause(cause);
  }

  /** The pool file concerned. */
  public Path pool() {
    return pool;
  }
}
