package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A pool file that cannot be opened as asked: not a pool, a different format version, a damaged
 * header, truncated, smaller than requested, or in use by another process. The message names the
 * file and the problem. The file is left as it was.
 */
public final class InvalidPoolException extends IOException {
  private final Path pool;

  public InvalidPoolException(Path pool, String problem) {
    super("NVM pool " + pool + ": " + problem);
    this.pool = pool;
  }

  /** The pool file concerned. */
  public Path pool() {
    return pool;
  }
}
