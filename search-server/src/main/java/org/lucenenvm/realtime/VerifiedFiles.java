package org.lucenenvm.realtime;

import java.io.IOException;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.BufferedChecksumIndexInput;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;

/**
 * Opens the engine's own small checksummed files (manifest, epochs) for parsing only after their
 * whole-file checksum has been verified, so that nothing a damaged file declares (a count, an
 * array length) is believed: such a file is refused with a {@link
 * org.apache.lucene.index.CorruptIndexException} naming it, never with an {@link
 * OutOfMemoryError} or a misread.
 */
final class VerifiedFiles {
  private VerifiedFiles() {}

  /**
   * Verifies the {@link CodecUtil#writeFooter footer} checksum of {@code name} in {@code dir}, then
   * returns an input positioned at its start.
   */
  static ChecksumIndexInput open(Directory dir, String name) throws IOException {
    IndexInput in = dir.openInput(name, IOContext.READONCE);
    try {
      CodecUtil.checksumEntireFile(in);
      in.seek(0);
      return new BufferedChecksumIndexInput(in);
    } catch (Throwable t) {
      IOUtils.closeWhileHandlingException(in);
      throw t;
    }
  }
}
