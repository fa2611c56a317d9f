package org.lucenenvm.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The usable bytes of the file system holding a pool, for {@link PoolGrower}: asked of the file
 * system at most once per interval, so that the write path (an allocation below the watermark of a
 * pool that cannot grow, a flood-stage check counting what the pool can still grow by) makes no
 * system call. Between two readings the figure is lowered by what the pool grew since the last
 * reading (a growth writes its new range out in full, {@link NvmHeap#grow}), so a pool's own
 * growths are always counted; space others take or free on the file system shows at the next
 * reading. Reads take no lock; a reading that is due is taken by one thread.
 */
final class FileSystemRoom {
  /** Default interval between two readings of the file system: 1 second. */
  static final long DEFAULT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The usable bytes of the file system holding a pool file. */
  @FunctionalInterface
  interface UsableSpace {
    UsableSpace FILE_STORE = file -> Files.getFileStore(file).getUsableSpace();

    long of(Path file) throws IOException;
  }

  /** A reading: the usable bytes (-1 if unknown), the pool's size then, and when. */
  private record Reading(long usable, long poolSize, long atNanos, IOException failure) {}

  private final UsableSpace source;
  private final long intervalNanos;
  private final LongSupplier nanoClock;
  private volatile Reading last;

  /** Reads {@code source} at most once per {@link #DEFAULT_INTERVAL_NANOS}. */
  FileSystemRoom(UsableSpace source) {
    this(source, DEFAULT_INTERVAL_NANOS, System::nanoTime);
  }

  /** Reads {@code source} at most once per {@code intervalNanos} of {@code nanoClock}. */
  FileSystemRoom(UsableSpace source, long intervalNanos, LongSupplier nanoClock) {
    this.source = source;
    this.intervalNanos = intervalNanos;
    this.nanoClock = nanoClock;
  }

  /**
   * The usable bytes of the file system holding {@code heap}'s file, as of the last reading less
   * what the pool grew since.
   *
   * @throws IOException if the last reading failed
   */
  long usable(NvmHeap heap) throws IOException {
    Reading reading = current(heap);
    if (reading.failure != null) {
      throw reading.failure;
    }
    return Math.max(0, reading.usable - Math.max(0, heap.size() - reading.poolSize));
  }

  private Reading current(NvmHeap heap) {
    Reading reading = last;
    if (reading != null && nanoClock.getAsLong() - reading.atNanos < intervalNanos) {
      return reading;
    }
    synchronized (this) {
      long now = nanoClock.getAsLong();
      reading = last;
      if (reading == null || now - reading.atNanos >= intervalNanos) {
        long size = heap.size();
        try {
          reading = new Reading(source.of(heap.path()), size, now, null);
        } catch (IOException e) {
          reading = new Reading(-1, size, now, e);
        }
        last = reading;
      }
      return reading;
    }
  }
}
