package org.lucenenvm.realtime;

import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.FixedBitSet;

/**
 * Round trip of the {@link Manifest} format, recovery from interrupted replacements, refusal of a
 * damaged manifest.
 */
public class ManifestTest extends LuceneTestCase {
  private static final String TEMP = Manifest.FILE_NAME + ".tmp";

  private static Manifest incomplete() {
    FixedBitSet live = new FixedBitSet(130);
    live.set(0, 130);
    live.clear(7);
    live.clear(129);
    return new Manifest(
        Manifest.Status.INCOMPLETE,
        42,
        List.of(
            new Manifest.Segment(3, 1, SegmentState.MERGED, 130, new DeletedDocs(live, 2)),
            new Manifest.Segment(9, 0, SegmentState.COMMITTED, 10, null)),
        new Manifest.Missing(17, List.of(10L, 11L), "NVM budget exhausted"));
  }

  public void testRoundTrip() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      assertNull(Manifest.find(dir));
      incomplete().write(dir);
      Manifest read = Manifest.find(dir);
      assertEquals(Manifest.Status.INCOMPLETE, read.status());
      assertEquals(42, read.nextSegmentId());
      assertEquals(incomplete().missing(), read.missing());
      assertEquals(138, read.persistedDocs());
      Manifest.Segment merged = read.segments().get(0);
      assertEquals(SegmentState.MERGED, merged.state());
      assertFalse(merged.deletions().isLive(7));
      assertFalse(merged.deletions().isLive(129));
      assertTrue(merged.deletions().isLive(128));
      Manifest.inUse(43).write(dir);
      assertEquals(Manifest.Status.IN_USE, Manifest.find(dir).status());
      assertEquals(List.of(Manifest.FILE_NAME), List.of(dir.listAll()));
    }
  }

  public void testLoggedManifestKeepsItsDurableSequence() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      Manifest.logged(7, incomplete().segments(), 123_456_789_012L).write(dir);
      Manifest read = Manifest.find(dir);
      assertEquals(Manifest.Status.LOGGED, read.status());
      assertEquals(123_456_789_012L, read.durableSequence());
      assertEquals(7, read.nextSegmentId());
      assertEquals(138, read.persistedDocs());
      expectThrows(
          IllegalArgumentException.class,
          () -> new Manifest(Manifest.Status.CLEAN, 1, List.of(), null, 5));
    }
  }

  public void testReplacementInterruptedBeforeRenameIsCompleted() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      incomplete().write(dir);
      dir.rename(Manifest.FILE_NAME, TEMP); // synced new manifest, old one already deleted
      assertEquals(Manifest.Status.INCOMPLETE, Manifest.find(dir).status());
      assertEquals(List.of(Manifest.FILE_NAME), List.of(dir.listAll()));
    }
  }

  public void testUnfinishedTemporaryFileIsDropped() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexOutput out = dir.createOutput(TEMP, IOContext.DEFAULT)) {
        out.writeInt(1);
      }
      assertNull(Manifest.find(dir));
      assertEquals(0, dir.listAll().length);
      Manifest.inUse(1).write(dir);
      try (IndexOutput out = dir.createOutput(TEMP, IOContext.DEFAULT)) {
        out.writeInt(1);
      }
      assertEquals(Manifest.Status.IN_USE, Manifest.find(dir).status());
      assertEquals(List.of(Manifest.FILE_NAME), List.of(dir.listAll()));
    }
  }

  /**
   * A manifest whose segment count is damaged into 2^31 - 1 is refused by its checksum, naming the
   * file, before the count is believed (which would throw OutOfMemoryError); as the temporary file
   * of an interrupted replacement it is dropped.
   */
  public void testDamagedManifestDeclaringAHugeCountIsRefusedNamingTheFile() throws Exception {
    try (Directory dir = new ByteBuffersDirectory()) {
      Manifest.logged(7, List.of(), 0).write(dir);
      // Header, Status, NextSegmentId (7: one byte), DurableSequence (0: one byte), SegmentCount
      int countAt = CodecUtil.headerLength(Manifest.CODEC) + 3;
      assertEquals(0, DamagedFiles.read(dir, Manifest.FILE_NAME)[countAt]);
      DamagedFiles.splice(dir, Manifest.FILE_NAME, countAt, DamagedFiles.hugeVInt());
      CorruptIndexException e = expectThrows(CorruptIndexException.class, () -> Manifest.find(dir));
      assertTrue(e.getMessage(), e.getMessage().contains(Manifest.FILE_NAME));
      assertTrue(e.getMessage(), e.getMessage().contains("checksum failed"));

      dir.rename(Manifest.FILE_NAME, TEMP);
      assertNull(Manifest.find(dir));
      assertEquals(0, dir.listAll().length);
    }
  }
}
