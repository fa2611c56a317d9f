package org.lucenenvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Creates and removes the per-configuration directories under the run's work directory, and the
 * directories of the files a command writes.
 */
final class WorkDirectories {

  private WorkDirectories() {}

  /** {@code workDir/name}, emptied and created. */
  static Path fresh(Path workDir, String name) throws IOException {
    Path dir = workDir.resolve(name);
    delete(dir);
    return Files.createDirectories(dir);
  }

  /** Creates the directory {@code file} goes into, if it does not exist yet. */
  static void createParent(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
  }

  /** Deletes {@code dir} and everything below it, if it exists. */
  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(WorkDirectories::deleteOne);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static void deleteOne(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
