package org.lucenenvm.server;

import java.util.Locale;
import picocli.CommandLine;

/** Parses byte sizes such as {@code 1048576}, {@code 512k}, {@code 64m}, {@code 2g} (powers of 1024). */
public final class ByteSize implements CommandLine.ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    return parse(value);
  }

  /** The number of bytes {@code value} names; {@link IllegalArgumentException} if it names none. */
  public static long parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.endsWith("b")) {
      v = v.substring(0, v.length() - 1);
    }
    int shift = 0;
    if (!v.isEmpty()) {
      switch (v.charAt(v.length() - 1)) {
        case 'k' -> shift = 10;
        case 'm' -> shift = 20;
        case 'g' -> shift = 30;
        case 't' -> shift = 40;
        default -> shift = 0;
      }
    }
    String digits = shift == 0 ? v : v.substring(0, v.length() - 1);
    try {
      long n = Long.parseLong(digits.trim());
      if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid size '" + value + "': use a byte count with an optional k, m, g or t suffix");
    }
  }
}
