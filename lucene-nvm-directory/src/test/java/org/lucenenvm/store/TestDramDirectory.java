package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/** Lucene's Directory conformance suite on {@link DramDirectory}, and when its memory is freed. */
public class TestDramDirectory extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) {
    return new DramDirectory();
  }

  public void testDeletedFileStaysReadableUntilItsLastInputCloses() throws IOException {
    try (DramDirectory dir = new DramDirectory()) {
      write(dir, "a", 1234);
      IndexInput in = dir.openInput("a", IOContext.DEFAULT);
      IndexInput clone = in.clone();
      dir.deleteFile("a");
      clone.seek(1000);
      assertEquals((byte) 1000, clone.readByte());
      in.close();
      expectThrows(AlreadyClosedException.class, () -> clone.readByte());
    }
  }

  public void testClosingTheDirectoryFreesFilesOnceTheirInputsClose() throws IOException {
    DramDirectory dir = new DramDirectory();
    write(dir, "a", 10);
    write(dir, "b", 10);
    IndexInput open = dir.openInput("a", IOContext.DEFAULT);
    IndexInput b = dir.openInput("b", IOContext.DEFAULT);
    RandomAccessInput slice = b.randomAccessSlice(0, 10);
    b.close();
    dir.close();
    open.seek(3);
    assertEquals((byte) 3, open.readByte()); // still held by its input
    open.close();
    expectThrows(AlreadyClosedException.class, () -> open.readByte());
    expectThrows(AlreadyClosedException.class, () -> slice.readByte(3)); // its file had no holder left
  }

  /** The reason the class exists: a DRAM tier beside an NVM tier adds no input class. */
  public void testInputsAreNvmDirectoryInputs() throws IOException {
    try (DramDirectory dram = new DramDirectory();
        NvmDirectory nvm = NvmDirectory.open(PoolPaths.poolIn(createTempDir("pool")), 1 << 20)) {
      write(dram, "a", 100);
      write(nvm, "a", 100);
      try (IndexInput fromDram = dram.openInput("a", IOContext.DEFAULT);
          IndexInput fromNvm = nvm.openInput("a", IOContext.DEFAULT)) {
        assertSame(fromNvm.getClass(), fromDram.getClass());
        assertSame(
            fromNvm.randomAccessSlice(0, 10).getClass(),
            fromDram.randomAccessSlice(0, 10).getClass());
      }
    }
  }

  public void testFileCannotBeOpenedWhileBeingWritten() throws IOException {
    try (DramDirectory dir = new DramDirectory();
        IndexOutput out = dir.createOutput("a", IOContext.DEFAULT)) {
      out.writeByte((byte) 1);
      expectThrows(AccessDeniedException.class, () -> dir.openInput("a", IOContext.DEFAULT));
    }
  }

  private static void write(Directory dir, String name, int length) throws IOException {
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      for (int i = 0; i < length; i++) {
        out.writeByte((byte) i);
      }
    }
  }
}
