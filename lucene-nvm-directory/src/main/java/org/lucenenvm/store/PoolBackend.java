package org.lucenenvm.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Maps a pool file. Two implementations exist: {@link FfmPoolBackend} (pure Java, the default) and
 * {@link LlplPoolBackend} (Intel's llpl over PMDK, optional).
 */
public interface PoolBackend {

  /** Short name used in configuration and logs, e.g. {@code ffm} or {@code llpl}. */
  String name();

  /**
   * Maps {@code size} bytes of {@code file}. The file already has at least that size and {@code
   * channel} is open for reading and writing and holds the pool's lock.
   */
  MappedPool map(Path file, FileChannel channel, long size) throws IOException;

  /**
   * Maps {@code [offset, offset + length)} of {@code file} as one more chunk of a pool that is
   * open, for {@link NvmHeap#grow}: the file already has that length, and the mappings made before
   * stay as they are. The returned pool's segment and persist offsets start at {@code offset}'s
   * byte. A backend that can only map whole pools refuses (the default).
   *
   * @throws IOException if this backend cannot map part of a pool
   */
  default MappedPool mapRange(Path file, FileChannel channel, long offset, long length) throws IOException {
    throw new IOException(
        "the "
            + name()
            + " backend maps whole pools only: pool "
            + file
            + " cannot grow while it is open; reopen it with the larger size");
  }

  /** Returns the backend called {@code name} ({@code ffm} or {@code llpl}). */
  static PoolBackend forName(String name) {
    return switch (name) {
      case "ffm" -> new FfmPoolBackend();
      case "llpl" -> new LlplPoolBackend();
      default ->
          throw new IllegalArgumentException(
              "unknown NVM pool backend '" + name + "': expected 'ffm' or 'llpl'");
    };
  }
}
