package org.lucenenvm.store;

import java.nio.file.Path;

/** Child JVM that opens a pool, prints {@code READY} and holds it until killed. */
public final class PoolHolder {
  private PoolHolder() {}

  public static void main(String[] args) throws Exception {
    try (NvmHeap heap = NvmHeap.open(Path.of(args[0]), Long.parseLong(args[1]))) {
      System.out.println("READY " + heap.size());
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
