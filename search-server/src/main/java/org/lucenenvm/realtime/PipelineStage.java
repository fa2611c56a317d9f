package org.lucenenvm.realtime;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One single-threaded pipeline stage: a daemon thread taking items from a bounded queue and
 * handing them to a handler, measuring the time spent in the handler. The thread lowers its own
 * scheduling priority to the given nice value when it starts ({@link ThreadNiceness}). A handler
 * failure is passed to the failure sink and the stage keeps draining its queue (so producers
 * never block on a dead stage). The bound is a count of permits, one per queued item: an item
 * added beyond it is queued all the same, in order, and its producer then waits for room unless
 * told it must not ({@link #add}, {@link #awaitRoom}).
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
  /** Unbounded; {@link #room} bounds the items put within capacity. */
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  /** One permit per free place of the capacity. */
  private final Semaphore room;
  private final Object overflowLock = new Object();
  /** Items queued beyond the capacity and not taken yet (guarded by overflowLock). */
  private int overflow;
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
    this.room = new Semaphore(capacity);
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

  /** An item queued beyond the capacity: it holds no permit. */
  private record Overflow(Object item) {}

  /**
   * Enqueues an item without waiting: it takes a free place of the capacity, or is queued beyond
   * it. Items are handled in the order they are added, so a producer that must keep an order adds
   * under its own lock and waits for room ({@link #awaitRoom}) after releasing it.
   */
  void add(T item) {
    if (room.tryAcquire()) {
      queue.add(item);
    } else {
      synchronized (overflowLock) {
        overflow++;
      }
      queue.add(new Overflow(item));
    }
  }

  /**
   * Backpressure after {@link #add}: waits while items are queued beyond the capacity, unless
   * {@code mustNotWait} says so; once the stage is stopping, returns instead of waiting for a
   * consumer that is gone.
   */
  void awaitRoom(BooleanSupplier mustNotWait) throws InterruptedException {
    synchronized (overflowLock) {
      while (overflow > 0 && !stopping && !mustNotWait.getAsBoolean()) {
        overflowLock.wait(50); // timed: stopping and mustNotWait change without a notification
      }
    }
  }

  /** Enqueues an item if there is room; returns whether it was enqueued. */
  boolean offer(T item) {
    if (!room.tryAcquire()) {
      return false;
    }
    queue.add(item);
    return true;
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
      if (item instanceof Overflow beyondCapacity) {
        item = beyondCapacity.item();
        synchronized (overflowLock) {
          overflow--;
          overflowLock.notifyAll();
        }
      } else {
        room.release();
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
