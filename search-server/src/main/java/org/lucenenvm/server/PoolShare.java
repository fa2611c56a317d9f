package org.lucenenvm.server;

import picocli.CommandLine;

/** Parses a share of a pool such as {@code 95%} or {@code 0.95} into a fraction ({@code 0.95}). */
public final class PoolShare implements CommandLine.ITypeConverter<Double> {
  @Override
  public Double convert(String value) {
    return parse(value);
  }

  /** The fraction {@code value} names; {@link IllegalArgumentException} if it names none. */
  public static double parse(String value) {
    String v = value.trim();
    boolean percent = v.endsWith("%");
    try {
      double n = Double.parseDouble(percent ? v.substring(0, v.length() - 1).trim() : v);
      return percent ? n / 100 : n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid share '" + value + "': use a percentage such as 95% or a fraction such as 0.95");
    }
  }
}
