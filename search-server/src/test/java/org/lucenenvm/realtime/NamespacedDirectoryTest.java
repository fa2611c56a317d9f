package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.TrackingDirectoryWrapper;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Copies into a {@link NamespacedDirectory}: within the shared directory, or byte by byte. */
public class NamespacedDirectoryTest extends LuceneTestCase {

  /** A shared directory that records the copies it is asked to make. */
  private static final class RecordingDirectory extends FilterDirectory {
    final List<String> copies = new ArrayList<>();

    RecordingDirectory(Directory in) {
      super(in);
    }

    @Override
    public void copyFrom(Directory from, String src, String dest, IOContext context)
        throws IOException {
      copies.add((from == this ? "" : from + ":") + src + "->" + dest);
      super.copyFrom(from, src, dest, context);
    }
  }

  private static byte[] write(Directory dir, String name, int length) throws IOException {
    byte[] bytes = new byte[length];
    random().nextBytes(bytes);
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      out.writeBytes(bytes, bytes.length);
    }
    return bytes;
  }

  private static byte[] read(Directory dir, String name) throws IOException {
    try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
      byte[] bytes = new byte[(int) in.length()];
      in.readBytes(bytes, 0, bytes.length);
      return bytes;
    }
  }

  public void testCopyBetweenNamespacesIsTheSharedDirectorysCopy() throws IOException {
    try (RecordingDirectory shared = new RecordingDirectory(new ByteBuffersDirectory())) {
      NamespacedDirectory source = NamespacedDirectory.segment(shared, "seg1_");
      NamespacedDirectory target = NamespacedDirectory.segment(shared, "seg2_");
      byte[] bytes = write(source, "_0.doc", 1 + random().nextInt(200_000));
      // as a merge sees them: the source wrapped by Lucene, the target by the engine and Lucene
      Directory wrappedSource = new TrackingDirectoryWrapper(source);
      Directory wrappedTarget =
          new TrackingDirectoryWrapper(new AbortableMergeDirectory(target, () -> false));
      wrappedTarget.copyFrom(wrappedSource, "_0.doc", "_1.doc", IOContext.DEFAULT);

      assertEquals(List.of("seg1__0.doc->seg2__1.doc"), shared.copies);
      assertArrayEquals(bytes, read(target, "_1.doc"));
      assertArrayEquals(bytes, read(source, "_0.doc"));
      assertEquals(
          new HashSet<>(List.of("seg1__0.doc", "seg2__1.doc")),
          new HashSet<>(List.of(shared.listAll())));
    }
  }

  public void testCopyFromAnUnrelatedDirectoryCopiesTheBytes() throws IOException {
    try (RecordingDirectory shared = new RecordingDirectory(new ByteBuffersDirectory());
        Directory other = new ByteBuffersDirectory()) {
      NamespacedDirectory target = NamespacedDirectory.segment(shared, "seg2_");
      byte[] bytes = write(other, "_0.fdt", 1 + random().nextInt(200_000));
      new AbortableMergeDirectory(target, () -> false)
          .copyFrom(other, "_0.fdt", "_0.fdt", IOContext.DEFAULT);

      assertEquals(List.of(), shared.copies);
      assertArrayEquals(bytes, read(target, "_0.fdt"));
      assertArrayEquals(new String[] {"seg2__0.fdt"}, shared.listAll());
    }
  }

  public void testCopyIntoAStoppedMergeFailsLikeAWrite() throws IOException {
    try (Directory shared = new ByteBuffersDirectory()) {
      NamespacedDirectory source = NamespacedDirectory.segment(shared, "seg1_");
      write(source, "_0.tim", 100);
      Directory stopped =
          new AbortableMergeDirectory(NamespacedDirectory.segment(shared, "seg2_"), () -> true);
      expectThrows(
          MergePolicy.MergeAbortedException.class,
          () -> stopped.copyFrom(source, "_0.tim", "_1.tim", IOContext.DEFAULT));
      assertArrayEquals(new String[] {"seg1__0.tim"}, shared.listAll());
    }
  }
}
