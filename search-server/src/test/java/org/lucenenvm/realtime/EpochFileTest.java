package org.lucenenvm.realtime;

import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Round trip of the {@link EpochFile} and refusal of a damaged one. */
public class EpochFileTest extends LuceneTestCase {

  public void testRoundTrip() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      assertNull(EpochFile.read(dir, 2));
      long[][] epochs = {{3, 9, 1L << 40}, {}};
      EpochFile.write(dir, epochs);
      long[][] read = EpochFile.read(dir, 2);
      assertArrayEquals(epochs[0], read[0]);
      assertArrayEquals(epochs[1], read[1]);
      EpochFile.delete(dir);
      assertNull(EpochFile.read(dir, 2));
    }
  }

  /** An id count damaged into 2^31 - 1 is refused by the checksum, naming the file, before it is believed. */
  public void testDamagedCountIsRefusedNamingTheFile() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      EpochFile.write(dir, new long[][] {{5}});
      // Header, PartitionCount (1: one byte), IdCount
      int countAt = CodecUtil.headerLength("LuceneNvmRtEpoch") + 1;
      assertEquals(1, DamagedFiles.read(dir, EpochFile.NAME)[countAt]);
      DamagedFiles.splice(dir, EpochFile.NAME, countAt, DamagedFiles.hugeVInt());
      CorruptIndexException e = expectThrows(CorruptIndexException.class, () -> EpochFile.read(dir, 1));
      assertTrue(e.getMessage(), e.getMessage().contains(EpochFile.NAME));
    }
  }
}
