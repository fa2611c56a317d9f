package org.lucenenvm.bench;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * One document of a luceneutil line-doc file: {@code title<TAB>date<TAB>body} on one line.
 *
 * <p>Neither title nor date may contain a tab or a line break; the body may contain tabs (it is
 * everything after the second tab) but no line break.
 */
public record LineDoc(String title, String date, String body) {

  /** Field separator of the line-doc format. */
  public static final char SEPARATOR = '\t';

  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("dd-MMM-yyyy HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** {@code epochMillis} in luceneutil's date format, upper case, UTC: {@code 15-JAN-2001 00:00:00.000}. */
  public static String date(long epochMillis) {
    return DATE.format(Instant.ofEpochMilli(epochMillis)).toUpperCase(Locale.ROOT);
  }

  /** Validates the fields so that {@link #toLine()} round-trips through {@link LineDocReader}. */
  public LineDoc {
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(date, "date");
    Objects.requireNonNull(body, "body");
    requireNo(title, "title", true);
    requireNo(date, "date", true);
    requireNo(body, "body", false);
  }

  /** The document as one line of a line-doc file, without the line terminator. */
  public String toLine() {
    return title + SEPARATOR + date + SEPARATOR + body;
  }

  private static void requireNo(String value, String field, boolean tabForbidden) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\n' || c == '\r' || (tabForbidden && c == SEPARATOR)) {
        throw new IllegalArgumentException(
            "line-doc " + field + " must not contain " + (c == SEPARATOR ? "a tab" : "a line break") + ": " + value);
      }
    }
  }
}
