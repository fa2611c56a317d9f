package org.lucenenvm.bench;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Paces an ingest at a fixed rate without drift: document {@code i} (from 0) is due {@code i /
 * rate} seconds after {@link #start}, so a late wake-up or a slow add is made up by the documents
 * after it (they find their time already come and do not wait) instead of shifting every later
 * one. The ingest thread calls {@link #awaitTurn()} before each document; it sleeps until that
 * document is due. How late a document's turn started, at most, is kept: a target that falls
 * behind shows it, even if it catches up later. One thread only.
 */
public final class IngestPacer {

  /** Time in nanoseconds and waiting on it; tests inject their own. */
  public interface Clock {
    /** The current time, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Waits about {@code nanos} (never less than the clock's resolution allows). */
    void sleepNanos(long nanos) throws InterruptedException;
  }

  /** {@link System#nanoTime()} and {@link Thread#sleep(Duration)}. */
  public static final Clock SYSTEM = new Clock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleepNanos(long nanos) throws InterruptedException {
      Thread.sleep(Duration.ofNanos(nanos));
    }
  };

  private final double docsPerSecond;
  private final Clock clock;
  private long start;
  private boolean started;
  private long next;
  private long maxLagNanos;

  /** A pacer of {@code docsPerSecond} on {@code clock}. */
  public IngestPacer(double docsPerSecond, Clock clock) {
    this.docsPerSecond = checkRate(docsPerSecond);
    this.clock = clock;
  }

  /** {@code docsPerSecond} if it is a positive finite rate; otherwise an error naming it. */
  public static double checkRate(double docsPerSecond) {
    if (!(docsPerSecond > 0) || Double.isInfinite(docsPerSecond)) {
      throw new IllegalArgumentException("the ingest rate must be a positive number of documents per second: " + docsPerSecond);
    }
    return docsPerSecond;
  }

  /** Starts the schedule: document 0 is due at {@code startNanos} (on the pacer's clock). */
  public void start(long startNanos) {
    start = startNanos;
    started = true;
    next = 0;
    maxLagNanos = 0;
  }

  /** When document {@code i} is due. */
  long dueNanos(long i) {
    return start + (long) (i * 1e9 / docsPerSecond);
  }

  /** Waits until the next document is due, then counts it as started. */
  public void awaitTurn() throws IOException {
    if (!started) {
      throw new IllegalStateException("the pacer was not started");
    }
    long due = dueNanos(next);
    long now = clock.nanoTime();
    try {
      while (now < due) {
        clock.sleepNanos(due - now);
        now = clock.nanoTime();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while pacing document " + next + " of the ingest");
    }
    maxLagNanos = Math.max(maxLagNanos, now - due);
    next++;
  }

  /** The pace of the {@code docs} documents paced so far, which took {@code elapsedNanos} in all. */
  public IngestPace pace(long docs, long elapsedNanos) {
    return new IngestPace(docsPerSecond, docs / (elapsedNanos / 1e9), maxLagNanos / 1e6);
  }
}
