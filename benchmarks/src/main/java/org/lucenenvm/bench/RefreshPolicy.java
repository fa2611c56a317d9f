package org.lucenenvm.bench;

/**
 * How often a WRT (near-real-time) run refreshes its searcher: before every {@code interval}-th
 * query counted over all query threads (NRT-1 refreshes before every query), or never after the
 * one refresh when the timing window opens (NRT-inf, {@link #NEVER}).
 */
public record RefreshPolicy(long interval) {

  /** Interval value meaning "never after the window opens". */
  public static final long NEVER = Long.MAX_VALUE;

  /** Checks the interval. */
  public RefreshPolicy {
    if (interval < 1) {
      throw new IllegalArgumentException("refresh interval must be >= 1: " + interval);
    }
  }

  /** Parses {@code 1}, {@code 10}, ... or {@code inf} / {@code never} / {@code ∞}. */
  public static RefreshPolicy parse(String text) {
    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
    if (t.equals("inf") || t.equals("never") || t.equals("∞")) {
      return new RefreshPolicy(NEVER);
    }
    try {
      return new RefreshPolicy(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("refresh interval must be a positive number or 'inf': " + text, e);
    }
  }

  /** Whether the searcher is never refreshed after the window opens. */
  public boolean never() {
    return interval == NEVER;
  }

  /** Whether query number {@code sequence} (0-based, over all threads) refreshes first. */
  public boolean refreshBefore(long sequence) {
    return !never() && sequence % interval == 0;
  }

  /** {@code NRT-<interval>} or {@code NRT-inf}. */
  public String label() {
    return "NRT-" + (never() ? "inf" : Long.toString(interval));
  }
}
