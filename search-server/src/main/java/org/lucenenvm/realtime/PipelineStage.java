package org.lucenenvm.realtime;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One single-threaded pipeline stage: a daemon thread taking items from a bounded queue and
 * handing them to a handler, measuring the time spent in the handler. The thread lowers its own
 * scheduling priority to the given nice value when it starts ({@link ThreadNiceness}). A handler
 * failure is passed to the failure sink and the stage keeps draining its queue (so producers
 * never block on a dead stage). The bound is a count of the items queued and not yet taken: an
 * item is always queued, in order, and its producer then waits until no more than the capacity
 * are pending, unless told it must not ({@link #add}, {@link #awaitRoom}).
 *
 * @param <T> item type
 */
final class PipelineStage<T> {
  private static final Object STOP = new Object();
  private static final System.Logger LOG = System.getLogger(PipelineStage.class.getName());

  /** Handles one item. */
  @FunctionalInterface
  interface Handler<T> {
    void handle(T item) throws Exception;
  }

  private final String name;
  /** Unbounded; producers that wait for room keep it near {@link #capacity}. */
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final int capacity;
  private final Object pendingLock = new Object();
  /** Items queued and not taken yet (guarded by pendingLock). */
  private int pending;
  private final Handler<T> handler;
  private final Consumer<Throwable> onFailure;
  private final AtomicLong busyNanos = new AtomicLong();
  private final AtomicLong items = new AtomicLong();
  private final Thread thread;
  private final int nice;
  private volatile boolean stopping;

  PipelineStage(
      String name,
      int capacity,
      int nice,
      Handler<T> handler,
      Consumer<Throwable> onFailure) {
    this.name = name;
    this.nice = nice;
    this.capacity = capacity;
    this.handler = handler;
    this.onFailure = onFailure;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  String name() {
    return name;
  }

  /**
   * Enqueues an item without waiting, beyond the capacity if need be. Items are handled in the order they are added, so a producer that must keep an order adds
   * under its own lock and waits for room ({@link #awaitRoom}) after releasing it.
   */
  void add(T item) {
    synchronized (pendingLock) {
      pending++;
      queue.add(item);
    }
  }

  /**
   * Backpressure after {@link #add}: waits while more items than the capacity are pending, unless
   * {@code mustNotWait} says so; once the stage is stopping, returns instead of waiting for a
   * consumer that is gone.
   */
  void awaitRoom(BooleanSupplier mustNotWait) throws InterruptedException {
    synchronized (pendingLock) {
      while (pending > capacity && !stopping && !mustNotWait.getAsBoolean()) {
        pendingLock.wait(50); // timed: stopping and mustNotWait change without a notification
      }
    }
  }

  /** Enqueues an item if there is room; returns whether it was enqueued. */
  boolean offer(T item) {
    synchronized (pendingLock) {
      if (pending >= capacity) {
        return false;
      }
      pending++;
      queue.add(item);
      return true;
    }
  }

  /** Nanoseconds spent handling items so far. */
  long busyNanos() {
    return busyNanos.get();
  }

  /** Items handled so far. */
  long items() {
    return items.get();
  }

  /** Items waiting in the queue. */
  int queued() {
    return queue.size();
  }

  /** Lets the stage finish the items already queued, then stops it and waits for its thread. */
  void stop() throws InterruptedException {
    queue.add(STOP);
    stopping = true;
    thread.join();
  }

  @SuppressWarnings("unchecked")
  private void run() {
    ThreadNiceness.applyToCurrentThread(nice)
        .ifPresent(
            why ->
                LOG.log(
                    System.Logger.Level.WARNING,
                    "pipeline thread {0} keeps its priority (nice {1} not applied): {2}",
                    name,
                    nice,
                    why));
    while (true) {
      Object item;
      try {
        item = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (item == STOP) {
        return;
      }
      synchronized (pendingLock) {
        pending--;
        pendingLock.notifyAll();
      }
      long start = System.nanoTime();
      try {
        handler.handle((T) item);
      } catch (Throwable t) {
        onFailure.accept(t);
      } finally {
        busyNanos.addAndGet(System.nanoTime() - start);
        items.incrementAndGet();
      }
    }
  }
}
