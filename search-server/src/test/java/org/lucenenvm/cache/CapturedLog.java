package org.lucenenvm.cache;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the logger of a class ({@code System.getLogger(source.getName())}, backed by {@code
 * java.util.logging}) publishes at {@code WARNING} or above while this is open, kept for the test
 * to check instead of printed (so expected warnings neither flood the test output nor go
 * unchecked). While open, the logger publishes at every level and prints nothing (records below
 * {@code WARNING} are dropped); messages are kept as logged, unformatted.
 */
final class CapturedLog implements AutoCloseable {
  private final Logger logger;
  private final boolean parentHandlers;
  private final Level level;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            warnings.add(record.getMessage());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  CapturedLog(Class<?> source) {
    logger = Logger.getLogger(source.getName());
    parentHandlers = logger.getUseParentHandlers();
    level = logger.getLevel();
    logger.setLevel(Level.ALL);
    logger.addHandler(handler);
    logger.setUseParentHandlers(false);
  }

  /** The messages of the warnings published so far, in order. */
  List<String> warnings() {
    return List.copyOf(warnings);
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    logger.setUseParentHandlers(parentHandlers);
    logger.setLevel(level);
  }
}
