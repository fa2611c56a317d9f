package org.lucenenvm.bench;

import java.io.PrintStream;

/**
 * A one-line progress bar on stderr: redrawn in place (carriage return) at most every 250 ms when
 * stderr is a terminal, otherwise one line per 10 % so that logs stay short. Thread-safe.
 */
public final class ProgressMeter implements AutoCloseable {

  private static final long REDRAW_NANOS = 250_000_000L;
  private static final int WIDTH = 30;

  private final String label;
  private final long total;
  private final String unit;
  private final PrintStream out = System.err;
  private final boolean terminal = System.console() != null;
  private final long start = System.nanoTime();
  private long done;
  private long lastDraw;
  private int lastDecile = -1;

  /** A meter for {@code total} units of work ({@code total <= 0}: unknown total). */
  public ProgressMeter(String label, long total, String unit) {
    this.label = label;
    this.total = total;
    this.unit = unit;
  }

  /** Records {@code n} more units done. */
  public synchronized void advance(long n) {
    done += n;
    long now = System.nanoTime();
    if (terminal) {
      if (now - lastDraw >= REDRAW_NANOS) {
        lastDraw = now;
        out.print('\r' + line(now));
        out.flush();
      }
    } else if (total > 0) {
      int decile = (int) Math.min(10, done * 10 / total);
      if (decile != lastDecile) {
        lastDecile = decile;
        out.println(line(now));
      }
    }
  }

  @Override
  public synchronized void close() {
    long now = System.nanoTime();
    if (terminal) {
      out.println('\r' + line(now));
    } else if (lastDecile != 10) {
      out.println(line(now));
    }
  }

  private String line(long now) {
    double seconds = Math.max(1e-9, (now - start) / 1e9);
    String rate = String.format("%,.0f %s/s", done / seconds, unit);
    if (total <= 0) {
      return String.format("%-14s %,d %s  %s  %.1f s", label, done, unit, rate, seconds);
    }
    int filled = (int) Math.min(WIDTH, done * WIDTH / total);
    return String.format(
        "%-14s [%s%s] %3d%%  %,d/%,d %s  %s  %.1f s",
        label, "#".repeat(filled), ".".repeat(WIDTH - filled), done * 100 / total, done, total, unit, rate, seconds);
  }
}
