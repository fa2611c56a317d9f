package org.lucenenvm.server;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations such as {@code 200us}, {@code 250ms}, {@code 10s}, {@code 2m} (a bare number is
 * milliseconds).
 */
public final class TimeSpan implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SPAN = Pattern.compile("(\\d{1,12})\\s*(ms|us|s|m)?");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** The duration {@code value} names; {@link IllegalArgumentException} if it names none. */
  public static Duration parse(String value) {
    Matcher m = SPAN.matcher(value.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid duration '" + value + "': use a number with an optional us, ms, s or m suffix, e.g. 500ms");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    return switch (unit) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1000L));
      default -> Duration.ofMillis(n);
    };
  }
}
