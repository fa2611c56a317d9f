package org.lucenenvm.cache;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link Persister} for volatile test memory: it persists nothing and, once told to ({@link
 * #failPersist}), fails one persist with an {@link UncheckedIOException} ("simulated persist
 * failure"), as {@link Persister#forRegion} reports an I/O error. Not thread-safe.
 */
final class FailingPersister implements Persister {
  /** Persists left before the one that fails, or -1 when none will. */
  private int persistsBeforeFailure = -1;

  /** Makes the {@code n}-th persist from now (0: the next one) fail, once. */
  void failPersist(int n) {
    persistsBeforeFailure = n;
  }

  @Override
  public void persist(long offset, long length) {
    if (persistsBeforeFailure >= 0 && persistsBeforeFailure-- == 0) {
      throw new UncheckedIOException(new IOException("simulated persist failure"));
    }
  }
}
