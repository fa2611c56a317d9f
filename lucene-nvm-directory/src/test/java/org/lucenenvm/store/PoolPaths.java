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

  /**
   * A fresh directory for short-lived pool images: on {@code /dev/shm} when there is one (opening
   * a pool persists its header, which costs a disk write elsewhere), else in {@code testDir}. The
   * caller deletes it with {@link #deleteImages}.
   */
  public static Path imageDir(Path testDir) throws IOException {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return Files.createTempDirectory(shm, "lucene-nvm-images-");
    }
    return poolIn(testDir).getParent();
  }

  /**
   * Deletes the files in {@code dir} (pool images and what a run wrote beside them, such as a
   * child process's output) and, if it is empty then, the directory.
   */
  public static void deleteImages(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file)) {
          Files.delete(file);
        }
      }
    }
    try (var rest = Files.list(dir)) {
      if (rest.findAny().isEmpty()) {
        Files.delete(dir);
      }
    }
  }
}
