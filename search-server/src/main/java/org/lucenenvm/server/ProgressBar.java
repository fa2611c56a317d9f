package org.lucenenvm.server;

import java.io.PrintStream;
import java.util.Locale;

/** A one-line text progress bar: {@code [########......]  45%  9,000/20,000 docs  2,345 docs/s}. */
final class ProgressBar {
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final long total;
  private final String unit;
  private final long startNanos = System.nanoTime();

  ProgressBar(PrintStream out, long total, String unit) {
    this.out = out;
    this.total = total;
    this.unit = unit;
  }

  /** Redraws the bar at {@code done}. */
  void show(long done) {
    int filled = (int) (WIDTH * done / Math.max(1, total));
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    out.printf(
        Locale.ROOT,
        "\r  [%s%s] %3d%%  %,d/%,d %s  %,.0f %s/s   ",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        100 * done / Math.max(1, total),
        done,
        total,
        unit,
        seconds > 0 ? done / seconds : 0,
        unit);
    out.flush();
  }

  /** Clears the line, so other output can be printed between redraws. */
  void clear() {
    out.print("\r" + " ".repeat(WIDTH + 60) + "\r");
  }
}
