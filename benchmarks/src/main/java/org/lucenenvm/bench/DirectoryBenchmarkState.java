package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.store.NvmDirectory;

/**
 * The directories the store benchmarks compare, all on the same tmpfs ({@code /dev/shm} unless
 * {@code -Dbench.tmpfs=...}) so that only software costs differ: {@code nvm} ({@link
 * NvmDirectory} over an emulated pool), {@code mmap} ({@link MMapDirectory}) and {@code niofs}
 * ({@link NIOFSDirectory}, Lucene's write path without mapping).
 */
final class DirectoryBenchmarkState {
  private DirectoryBenchmarkState() {}

  /** A fresh working directory on the tmpfs. */
  static Path workDir(String name) throws IOException {
    Path base = Path.of(System.getProperty("bench.tmpfs", "/dev/shm"));
    return Files.createTempDirectory(base, "lucene-nvm-" + name + "-");
  }

  /** Opens directory {@code kind} in {@code work}; an NVM pool gets {@code poolBytes}. */
  static Directory open(String kind, Path work, long poolBytes) throws IOException {
    return switch (kind) {
      case "nvm" -> NvmDirectory.open(work.resolve("bench.pool"), poolBytes);
      case "mmap" -> new MMapDirectory(work);
      case "niofs" -> new NIOFSDirectory(work);
      default -> throw new IllegalArgumentException("unknown directory kind " + kind);
    };
  }

  static void delete(Directory dir, Path work) throws IOException {
    IOUtils.close(dir);
    IOUtils.rm(work);
  }
}
