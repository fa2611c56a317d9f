package org.lucenenvm.realtime;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Byte accounting of the tiers: read-optimized segments held in DRAM (with the peak), segment files
 * in NVM (reserved before writing, so concurrent writers cannot overshoot the budget), and frozen
 * live segments waiting for their flush. Waiters on DRAM room use this object's monitor.
 */
final class MemoryAccounts {
  private final long dramBudget;
  private volatile long nvmBudget;
  private final AtomicLong dram = new AtomicLong();
  private final AtomicLong peakDram = new AtomicLong();
  private final AtomicLong largestDramSegment = new AtomicLong();
  private final AtomicLong nvm = new AtomicLong();
  private final AtomicLong frozenLive = new AtomicLong();

  MemoryAccounts(long dramBudget, long nvmBudget) {
    this.dramBudget = dramBudget;
    this.nvmBudget = nvmBudget;
  }

  long dram() {
    return dram.get();
  }

  long peakDram() {
    return peakDram.get();
  }

  /** Changes the NVM budget (reservations already made stay). */
  void setNvmBudget(long bytes) {
    nvmBudget = bytes;
  }

  long nvm() {
    return nvm.get();
  }

  long frozenLive() {
    return frozenLive.get();
  }

  boolean dramOverBudget() {
    return dram.get() > dramBudget;
  }

  long largestDramSegment() {
    return largestDramSegment.get();
  }

  /** Accounts one new DRAM segment copy of {@code bytes}. */
  void addDram(long bytes) {
    largestDramSegment.accumulateAndGet(bytes, Math::max);
    long now = dram.addAndGet(bytes);
    peakDram.accumulateAndGet(now, Math::max);
  }

  void releaseDram(long bytes) {
    dram.addAndGet(-bytes);
    synchronized (this) {
      notifyAll();
    }
  }

  /** Reserves NVM bytes if the budget allows; returns whether it did. */
  boolean tryReserveNvm(long bytes) {
    while (true) {
      long used = nvm.get();
      if (used + bytes > nvmBudget) {
        return false;
      }
      if (nvm.compareAndSet(used, used + bytes)) {
        return true;
      }
    }
  }

  /** Reserves NVM bytes or throws {@link NvmFullException} naming the demand. */
  void reserveNvm(long bytes, String what) {
    if (!tryReserveNvm(bytes)) {
      throw new NvmFullException(
          "NVM budget exhausted: "
              + what
              + " needs "
              + bytes
              + " bytes, "
              + nvm.get()
              + " of "
              + nvmBudget
              + " bytes in use (RtEngineConfig.nvmBudgetBytes)");
    }
  }

  /** Adds (or with a negative value returns) NVM bytes outside the budget check. */
  void adjustNvm(long bytes) {
    nvm.addAndGet(bytes);
  }

  void addFrozenLive(long bytes) {
    frozenLive.addAndGet(bytes);
  }

  /** Blocks while DRAM is over budget, calling {@code nudge} before each wait. */
  synchronized void awaitDramRoom(Runnable nudge, BooleanSupplier stop)
      throws InterruptedException {
    while (dramOverBudget() && !stop.getAsBoolean()) {
      nudge.run();
      wait(50);
    }
  }
}
