package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import org.apache.lucene.store.Directory;

/** Size measurements the runner reports next to latencies. */
public final class Measurements {

  private Measurements() {}

  /** Sum of the lengths of all files in {@code directory}. */
  public static long indexBytes(Directory directory) throws IOException {
    long total = 0;
    for (String file : directory.listAll()) {
      total += directory.fileLength(file);
    }
    return total;
  }

  /**
   * Used Java heap after asking for full collections (a few rounds, since one request may not
   * finish all concurrent work): what the live objects of the moment, an open index included, take.
   */
  public static long usedHeapAfterGc() {
    var memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      memory.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
