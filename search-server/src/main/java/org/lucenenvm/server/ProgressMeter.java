package org.lucenenvm.server;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line for long command-line steps (the demo's ingest, the benchmark runner's corpus,
 * ingest and query phases): {@code label [#########.....]  45%  9,000/20,000 docs  2,345 docs/s
 * 3.8 s}. On a terminal it is redrawn in place (carriage return) at most every 250 ms; otherwise
 * (CI, a log file) it prints a plain line at every 10 % and at least every 10 s, so logs stay short
 * and readable. Thread-safe.
 */
public final class ProgressMeter implements AutoCloseable {
  private static final long REDRAW_NANOS = 250_000_000L;
  private static final long LOG_NANOS = 10_000_000_000L;
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean terminal;
  private final String label;
  private final long total;
  private final String unit;
  private final long start = System.nanoTime();
  private long done;
  private long lastLine = start;
  private int lastDecile;
  private boolean drawn;

  /** A meter on stderr for {@code total} units ({@code total <= 0}: unknown total). */
  public ProgressMeter(String label, long total, String unit) {
    this(System.err, isTerminal(), label, total, unit);
  }

  /**
   * A meter on {@code out}; {@code terminal} chooses in-place redraws over periodic plain lines.
   */
  public ProgressMeter(PrintStream out, boolean terminal, String label, long total, String unit) {
    this.out = out;
    this.terminal = terminal;
    this.label = label;
    this.total = total;
    this.unit = unit;
  }

  /** Whether this process writes to an interactive terminal (not a pipe or a file). */
  public static boolean isTerminal() {
    Console console = System.console();
    return console != null && console.isTerminal();
  }

  /** Records {@code n} more units done. */
  public synchronized void advance(long n) {
    done += n;
    long now = System.nanoTime();
    if (terminal) {
      if (!drawn || now - lastLine >= REDRAW_NANOS) {
        redraw(now);
      }
      return;
    }
    int decile = total > 0 ? (int) Math.min(10, done * 10 / total) : 0;
    if (decile > lastDecile || now - lastLine >= LOG_NANOS) {
      lastDecile = decile;
      lastLine = now;
      out.println(line(now));
    }
  }

  private void redraw(long now) {
    lastLine = now;
    drawn = true;
    out.print('\r' + line(now));
    out.flush();
  }

  /**
   * Takes the meter off the screen so that other output can be printed; the next {@link
   * #advance} draws it again. Does nothing when not on a terminal.
   */
  public synchronized void clear() {
    if (terminal && drawn) {
      out.print('\r' + " ".repeat(line(System.nanoTime()).length()) + '\r');
      out.flush();
      drawn = false;
    }
  }

  /** Prints the final state (unless a plain line already said 100 %) and ends the line. */
  @Override
  public synchronized void close() {
    long now = System.nanoTime();
    if (terminal) {
      out.println('\r' + line(now));
    } else if (total <= 0 || lastDecile < 10) {
      out.println(line(now));
    }
    out.flush();
  }

  private String line(long now) {
    double seconds = Math.max(1e-9, (now - start) / 1e9);
    String rate = String.format(Locale.ROOT, "%,.0f %s/s", done / seconds, unit);
    if (total <= 0) {
      return String.format(Locale.ROOT, "%-14s %,d %s  %s  %.1f s", label, done, unit, rate, seconds);
    }
    int filled = (int) Math.min(WIDTH, done * WIDTH / total);
    return String.format(
        Locale.ROOT,
        "%-14s [%s%s] %3d%%  %,d/%,d %s  %s  %.1f s",
        label,
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        done * 100 / total,
        done,
        total,
        unit,
        rate,
        seconds);
  }
}
