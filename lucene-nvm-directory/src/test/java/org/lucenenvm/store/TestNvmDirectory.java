package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/** Lucene's own Directory conformance suite on the default (FFM) backend. */
public class TestNvmDirectory extends BaseDirectoryTestCase {
  static final long POOL_SIZE = 64L * 1024 * 1024;

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return NvmDirectory.open(PoolPaths.poolIn(path), POOL_SIZE);
  }
}
