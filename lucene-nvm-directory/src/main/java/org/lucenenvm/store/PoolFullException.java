package org.lucenenvm.store;

import java.io.IOException;

/**
 * An allocation the pool has no room for. The message gives the size asked for, the free bytes,
 * the pool size, the largest free extent and why the pool did not grow ({@link PoolGrowth}).
 * Nothing already persisted is affected.
 */
public final class PoolFullException extends IOException {
  public PoolFullException(String message) {
    super(message);
  }
}
