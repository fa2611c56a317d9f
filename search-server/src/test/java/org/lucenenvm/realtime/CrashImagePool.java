package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmHeap;
import org.lucenenvm.store.PoolPaths;
import org.lucenenvm.store.PowerFailureSimulator;

/**
 * Test support: a pool watched by a power-failure simulator that reports nothing, for crash images
 * on demand (what a {@code kill -9} or a power failure would leave of it while an engine runs).
 */
final class CrashImagePool implements AutoCloseable {
  /** Size of the pool. */
  static final long SIZE = 48L << 20;

  final Path dir;
  final PowerFailureSimulator simulator = new PowerFailureSimulator(point -> {});
  final NvmHeap heap;
  final NvmDirectory nvm;
  private int images;

  CrashImagePool(Path testDir) throws IOException {
    dir = PoolPaths.imageDir(testDir);
    heap = NvmHeap.open(dir.resolve("index.pool"), SIZE, NvmHeap.OpenMode.CREATE_OR_OPEN, simulator);
    nvm = new NvmDirectory(heap, new SingleInstanceLockFactory());
  }

  /** The pool a crash now could leave (unpersisted stores: all kept, or none). */
  Path crash(boolean keepUnpersisted) throws IOException {
    Path image = dir.resolve("crash" + images++ + ".pool");
    synchronized (simulator) { // no persist while the image is written
      simulator
          .crashPointNow()
          .writeImage(
              image,
              keepUnpersisted
                  ? PowerFailureSimulator.allDirtyLines()
                  : PowerFailureSimulator.noDirtyLines());
    }
    return image;
  }

  /**
   * Which unpersisted stores the images of a crash point with {@code dirtyLines} dirty lines keep:
   * none, all (when there are some) and a random half (when there are two or more).
   */
  static List<LongPredicate> survivorSets(long dirtyLines, Random random) {
    List<LongPredicate> sets = new ArrayList<>(List.of(PowerFailureSimulator.noDirtyLines()));
    if (dirtyLines > 0) {
      sets.add(PowerFailureSimulator.allDirtyLines());
    }
    if (dirtyLines > 1) {
      sets.add(PowerFailureSimulator.randomDirtyLines(new Random(random.nextLong())));
    }
    return sets;
  }

  /** Opens a crash image as a directory. */
  static NvmDirectory openImage(Path image) throws IOException {
    return NvmDirectory.open(image, 0);
  }

  @Override
  public void close() throws Exception {
    try {
      nvm.close();
      heap.close();
    } finally {
      PoolPaths.deleteImages(dir);
    }
  }
}
