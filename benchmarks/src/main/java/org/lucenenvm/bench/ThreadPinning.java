package org.lucenenvm.bench;

import java.util.concurrent.atomic.AtomicBoolean;
import net.openhft.affinity.AffinityLock;

/**
 * Optional pinning of benchmark threads to CPUs with OpenHFT Java-Thread-Affinity. Pinning fails
 * soft: if the library cannot pin here (no native support, no free CPU, restricted container) the
 * thread runs unpinned and one message on stderr says why. The library leaves CPU 0 to the operating
 * system by default ({@code -Daffinity.reserved=<hex mask>} changes the set), so on a 2-CPU machine
 * only one thread gets pinned.
 */
public final class ThreadPinning {

  private static final AtomicBoolean WARNED = new AtomicBoolean();
  private static final Pin UNPINNED = () -> {};

  /** A thread's pinning; closing it releases the CPU. */
  @FunctionalInterface
  public interface Pin extends AutoCloseable {
    @Override
    void close();
  }

  private final boolean enabled;

  /** Pins threads only if {@code enabled}. */
  public ThreadPinning(boolean enabled) {
    this.enabled = enabled;
  }

  /** Pins the calling thread; close the result when the thread's work is done. */
  public Pin pinCurrentThread() {
    if (!enabled) {
      return UNPINNED;
    }
    try {
      AffinityLock lock = AffinityLock.acquireLock();
      if (!lock.isAllocated()) {
        lock.release();
        warn("no free CPU to pin " + Thread.currentThread().getName() + " to (reservable CPUs: "
            + AffinityLock.RESERVED_AFFINITY + "; widen with -Daffinity.reserved=<hex CPU mask>)");
        return UNPINNED;
      }
      return lock::release;
    } catch (RuntimeException | LinkageError e) {
      warn(e.toString());
      return UNPINNED;
    }
  }

  private static void warn(String reason) {
    if (WARNED.compareAndSet(false, true)) {
      System.err.println("thread pinning unavailable, threads run unpinned: " + reason);
    }
  }
}
