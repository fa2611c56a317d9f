package org.lucenenvm.realtime;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One single-threaded pipeline stage: a daemon thread taking items from a bounded queue and
 * handing them to a handler, measuring the time spent in the handler. The thread lowers its own
 * scheduling priority to the given nice value when it starts ({@link ThreadNiceness}). A handler
 * failure is passed to the failure sink and the stage keeps draining its queue (so producers
 * never block on a dead stage).
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
  private final BlockingQueue<Object> queue;
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
    this.queue = new LinkedBlockingQueue<>(capacity);
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
   * Enqueues an item, waiting while the queue is full; once the stage is stopping, gives up
   * (returns false) instead of waiting for a consumer that is gone.
   */
  boolean put(T item) throws InterruptedException {
    while (!queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
      if (stopping) {
        return false;
      }
    }
    return true;
  }

  /** Enqueues an item if there is room; returns whether it was enqueued. */
  boolean offer(T item) {
    return queue.offer(item);
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
    queue.put(STOP);
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
