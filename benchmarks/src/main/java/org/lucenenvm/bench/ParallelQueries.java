package org.lucenenvm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs one body on {@code n} threads (optionally pinned) and collects what each returns. */
final class ParallelQueries {

  /** The work of one thread. */
  @FunctionalInterface
  interface ThreadBody<T> {
    /** Runs on thread {@code index}. */
    T run(int index) throws Exception;
  }

  private ParallelQueries() {}

  /** Starts {@code threads} threads running {@code body}, waits for all, rethrows the first failure. */
  static <T> List<T> run(String name, int threads, ThreadPinning pinning, ThreadBody<T> body) throws IOException {
    ExecutorService executor = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name(name + "-", 0).factory());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int index = i;
        futures.add(
            executor.submit(
                () -> {
                  ThreadPinning.Pin pin = pinning.pinCurrentThread();
                  try {
                    return body.run(index);
                  } finally {
                    pin.close();
                  }
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (ExecutionException e) {
      throw new IOException(name + " thread failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(name + " interrupted", e);
    } finally {
      executor.shutdownNow();
    }
  }
}
