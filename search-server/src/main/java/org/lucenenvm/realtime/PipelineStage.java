package org.lucenenvm.realtime;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One single-threaded pipeline stage: a daemon thread taking items from a bounded queue and
 * handing them to a handler, measuring the time spent in the handler. The thread lowers its own
 * scheduling priority to the given nice value when it starts ({@link ThreadNiceness}). A handler
 * failure is passed to the failure sink and the stage keeps draining its queue (so producers
 * never block on a dead stage). The bound is a count of permits, one per queued item, so that a
 * producer told it must not wait can queue an item beyond it, in order ({@link #put}).
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
   * Enqueues an item, waiting while the queue is full, unless {@code mustNotWait} says so (then it
   * is queued beyond the capacity); once the stage is stopping, gives up (returns false) instead
   * of waiting for a consumer that is gone.
   */
  boolean put(T item, BooleanSupplier mustNotWait) throws InterruptedException {
    while (!room.tryAcquire(50, TimeUnit.MILLISECONDS)) {
      if (stopping) {
        return false;
      }
      if (mustNotWait.getAsBoolean()) {
        queue.add(new Overflow(item));
        return true;
      }
    }
    queue.add(item);
    return true;
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
      if (item instanceof Overflow overflow) {
        item = overflow.item();
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
