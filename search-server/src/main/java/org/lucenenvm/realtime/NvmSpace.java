package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.ThreadInterruptedException;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.PoolFullException;

/**
 * The room in an engine's NVM pool, shared by its partitions, and the one place that decides
 * whether writes are refused for want of it.
 *
 * <ul>
 *   <li><b>Segment writes</b> (engraves, merges) promise their estimated size before they start
 *       ({@link #tryPromise}); a promise is refused unless the pool keeps {@link #reserveBytes()}
 *       free besides what earlier promises may still take. A pool that grows while open ({@link
 *       org.lucenenvm.store.PoolGrowth}) counts what it can still grow by ({@link
 *       NvmDirectory#growableBytes()}) as free: a write that does not find room in the pool grows
 *       it as it allocates, by up to that much. An engrave counts only the promises
 *       of other engraves: ingestion goes first, and a merge that then runs out of room while it
 *       writes is deferred like one refused at the start. That reserve is for what must always
 *       fit: manifests (written after every engrave, merge and delete checkpoint), the file
 *       table, the files a close writes. So a full pool never fails the pipeline: a merge that
 *       does not fit is deferred, an engrave waits ({@link #untilRoom}) with its segment readable
 *       in DRAM.
 *   <li><b>Flood stage</b>: at or above {@link RtEngineConfig#floodStage()} of the size the pool
 *       can reach (its size plus what it can still grow by; its size with growth off), and while
 *       a stage waits for room, adds and updates are refused ({@link #checkWritable}, {@link
 *       FloodStageException}); searches, gets and deletes go on, and once deletes and merges free
 *       room writes resume. The check reads volatile figures (the allocator's free bytes, the
 *       count of waiting stages and, once the pool's own size is at the watermark, what it can
 *       grow by: no system call, see {@link NvmDirectory#growableBytes()}) and takes no lock.
 * </ul>
 *
 * An NVM tier that is not an {@link NvmDirectory} has no pool figures: no promise is refused and
 * no watermark applies (its segment writes are still bounded by the NVM budget, {@link
 * MemoryAccounts}).
 */
final class NvmSpace {
  /** How long a stage waiting for room sleeps between attempts unless room is freed sooner. */
  static final long RETRY_MILLIS = 100;
  private static final long MIN_RESERVE = 64L << 10;
  private static final long MAX_RESERVE = 4L << 20;

  private final NvmDirectory pool;
  private final String name;
  private final double floodStage;
  /** Bytes promised to engraves under way (guarded by this). */
  private long promisedToEngraves;
  /** Bytes promised to merges under way (guarded by this). */
  private long promisedToMerges;
  /** Stages waiting for room now. */
  private final AtomicInteger waiting = new AtomicInteger();
  /** What the last stage that started waiting waits for, and why (null when none waits). */
  private volatile String waitingFor;

  private NvmSpace(NvmDirectory pool, String name, double floodStage) {
    this.pool = pool;
    this.name = name;
    this.floodStage = floodStage;
  }

  /** The room of {@code nvm}: its pool if it is an {@link NvmDirectory}, else no pool figures. */
  static NvmSpace of(Directory nvm, double floodStage) {
    return nvm instanceof NvmDirectory pool
        ? new NvmSpace(pool, pool.heap().path().toString(), floodStage)
        : new NvmSpace(null, String.valueOf(nvm), floodStage);
  }

  /** The pool's size (0 without a pool). */
  long totalBytes() {
    return pool == null ? 0 : pool.heap().size();
  }

  /** Bytes the pool can still grow by while open (0 without a pool or without growth). */
  long growableBytes() {
    return pool == null ? 0 : pool.growableBytes();
  }

  /** Bytes of the pool in use (0 without a pool). */
  long usedBytes() {
    return pool == null ? 0 : pool.heap().size() - pool.freeBytes();
  }

  /**
   * Bytes segment writes leave free for what must always fit: 1/64 of the pool, at least 64 KiB,
   * at most 4 MiB (a manifest takes a few bytes per segment plus a bit per document of each
   * segment with deletions: 125 KiB at a million documents).
   */
  long reserveBytes() {
    return Math.clamp(totalBytes() / 64, MIN_RESERVE, MAX_RESERVE);
  }

  /** The kinds of segment write, in the order they get room. */
  enum Write {
    ENGRAVE,
    MERGE
  }

  /**
   * Promises {@code bytes} to a segment write of kind {@code write} if the pool keeps its reserve
   * free besides them and the promises that write must respect; returns whether it did. {@link
   * #release} the promise once the write ended (its bytes are then the allocator's) or failed.
   */
  synchronized boolean tryPromise(long bytes, Write write) {
    if (pool == null) {
      return true;
    }
    if (pool.freeBytes() + growableBytes() - promisedBefore(write) - reserveBytes() < bytes) {
      return false;
    }
    if (write == Write.ENGRAVE) {
      promisedToEngraves += bytes;
    } else {
      promisedToMerges += bytes;
    }
    return true;
  }

  private long promisedBefore(Write write) {
    return write == Write.ENGRAVE ? promisedToEngraves : promisedToEngraves + promisedToMerges;
  }

  /** Returns a promise made by {@link #tryPromise}, and wakes the stages waiting for room. */
  synchronized void release(long bytes, Write write) {
    if (pool != null) {
      if (write == Write.ENGRAVE) {
        promisedToEngraves -= bytes;
      } else {
        promisedToMerges -= bytes;
      }
      notifyAll();
    }
  }

  /** Wakes the stages waiting for room (files were deleted, a promise returned, a budget raised). */
  synchronized void roomFreed() {
    notifyAll();
  }

  /** A refusal naming {@code what} could not get {@code bytes} and the pool's figures. */
  synchronized NvmFullException noRoom(String what, long bytes, Write write) {
    return new NvmFullException(
        "NVM pool "
            + name
            + " has no room for "
            + what
            + ": needs "
            + bytes
            + " bytes besides the "
            + reserveBytes()
            + " kept free for manifests and the "
            + promisedBefore(write)
            + " promised to writes under way; "
            + usage().describe());
  }

  /** Whether adds and updates are refused now (a volatile read or two, no lock). */
  boolean refusesWrites() {
    return waiting.get() > 0 || floodStageReached();
  }

  private boolean floodStageReached() {
    // What the pool can grow by is read only once its own size is at the watermark.
    return pool != null && usedBytes() >= floodStage * totalBytes() && floodStageReached(growableBytes());
  }

  private boolean floodStageReached(long growable) {
    return pool != null && usedBytes() >= floodStage * (totalBytes() + growable);
  }

  /** Whether a stage waits for room (then a writer handing over a segment must not wait for it). */
  boolean waitingForRoom() {
    return waiting.get() > 0;
  }

  /**
   * Refuses an add or update with {@link FloodStageException} when {@link #refusesWrites}, with
   * figures that show the refusal.
   */
  void checkWritable() {
    if (refusesWrites()) {
      // Decide again on the figures the refusal reports: a wait that ended since lets the write in.
      NvmUsage usage = usage();
      if (usage.refusesWrites()) {
        throw new FloodStageException(usage);
      }
    }
  }

  /** The pool's figures now. */
  NvmUsage usage() {
    String wait = waiting.get() > 0 ? waitingFor : null;
    long growable = growableBytes();
    return new NvmUsage(name, usedBytes(), totalBytes(), growable, floodStage, floodStageReached(growable), wait);
  }

  /** A step that needs room in the pool; it throws {@link NvmFullException} when there is none. */
  @FunctionalInterface
  interface RoomAction {
    void run() throws IOException;
  }

  /**
   * Runs {@code action} until it finds room: each attempt refused with {@link NvmFullException}
   * runs {@code onWait} (e.g. asks the merger to reclaim deleted documents) and waits until room is
   * freed (at most {@link #RETRY_MILLIS}) before the next. While it waits, writes are refused and
   * {@link #usage()} names what waits and why. Returns false when {@code stop} turned true after a
   * refused attempt (nothing was done), true once the action succeeded.
   */
  boolean untilRoom(RoomAction action, Runnable onWait, BooleanSupplier stop) throws IOException {
    boolean counted = false;
    try {
      while (true) {
        try {
          action.run();
          return true;
        } catch (NvmFullException full) {
          if (stop.getAsBoolean()) {
            return false;
          }
          waitingFor = full.getMessage();
          if (!counted) {
            counted = true;
            waiting.incrementAndGet();
          }
        }
        onWait.run();
        synchronized (this) {
          wait(RETRY_MILLIS);
        }
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    } finally {
      if (counted) {
        waiting.decrementAndGet();
      }
    }
  }

  /** Whether {@code t} (or a cause or suppressed exception of it) is a full pool's refusal. */
  static boolean isPoolFull(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof PoolFullException) {
        return true;
      }
      for (Throwable s : c.getSuppressed()) {
        if (isPoolFull(s)) {
          return true;
        }
      }
    }
    return false;
  }
}
