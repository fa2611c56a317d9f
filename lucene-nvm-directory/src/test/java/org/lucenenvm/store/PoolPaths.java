package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test helper: the pool file for a test directory. Lucene's test framework hands out paths on mock
 * file systems whose channels cannot be memory-mapped; a pool must be mapped, so it goes on the
 * default file system at the same location.
 */
public final class PoolPaths {
  private PoolPaths() {}

  public static Path poolIn(Path testDir) throws IOException {
    Path real = Path.of(testDir.toAbsolutePath().toString());
    Files.createDirectories(real);
    return real.resolve("index.pool");
  }
}
