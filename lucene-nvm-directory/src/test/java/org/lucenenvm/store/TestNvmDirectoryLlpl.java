package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.junit.BeforeClass;

/**
 * Lucene's own Directory conformance suite on the llpl backend. Reported as skipped, with the
 * reason, where llpl's native libraries cannot load.
 */
public class TestNvmDirectoryLlpl extends BaseDirectoryTestCase {

  @BeforeClass
  public static void requireLlpl() {
    String reason = LlplPoolBackend.unavailableReason();
    assumeTrue("llpl backend unavailable: " + reason, reason == null);
  }

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    NvmHeap heap =
        NvmHeap.open(
            PoolPaths.poolIn(path),
            TestNvmDirectory.POOL_SIZE,
            NvmHeap.OpenMode.CREATE_OR_OPEN,
            new LlplPoolBackend());
    return new HeapClosingDirectory(heap);
  }

  /** An NvmDirectory over a heap it did not open, closing the heap with it. */
  private static final class HeapClosingDirectory extends org.apache.lucene.store.FilterDirectory {
    private final NvmHeap heap;

    HeapClosingDirectory(NvmHeap heap) throws IOException {
      super(new NvmDirectory(heap, new SingleInstanceLockFactory()));
      this.heap = heap;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        heap.close();
      }
    }
  }
}
