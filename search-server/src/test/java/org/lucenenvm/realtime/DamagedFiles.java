package org.lucenenvm.realtime;

import java.io.IOException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;

/** Test support: damages a file of a directory in place. */
final class DamagedFiles {
  private DamagedFiles() {}

  /** The bytes of {@code name}. */
  static byte[] read(Directory dir, String name) throws IOException {
    try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
      byte[] bytes = new byte[(int) in.length()];
      in.readBytes(bytes, 0, bytes.length);
      return bytes;
    }
  }

  /**
   * Replaces the byte at {@code at} of file {@code name} with {@code replacement} (the file grows
   * if that is longer); the footer's checksum no longer matches.
   */
  static void splice(Directory dir, String name, int at, byte[] replacement) throws IOException {
    byte[] bytes = read(dir, name);
    dir.deleteFile(name);
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      out.writeBytes(bytes, 0, at);
      out.writeBytes(replacement, replacement.length);
      out.writeBytes(bytes, at + 1, bytes.length - at - 1);
    }
  }

  /** {@link Integer#MAX_VALUE} as a VInt. */
  static byte[] hugeVInt() {
    return new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
  }
}
