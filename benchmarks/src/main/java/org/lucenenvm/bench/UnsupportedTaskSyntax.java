package org.lucenenvm.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes luceneutil task lines this runner cannot execute, so that they are skipped rather than
 * handed to the classic query parser, which would run them as a different query. The kind a line is
 * counted under:
 *
 * <ul>
 *   <li>{@code near//}, {@code nrq//}, {@code vector//}, ... : luceneutil's {@code name//} prefixes
 *       (span/interval, numeric range, vector, respell, grouping, ... queries);
 *   <li>{@code count(...)} and other {@code name(...)} forms at the start of the query;
 *   <li>{@code +minShouldMatch=}, {@code +filter=}, ... : luceneutil's {@code +name=} options;
 *   <li>{@code +facets:}: facet requests; categories whose name has {@code Facet}: facets;
 *   <li>categories whose name ends in {@code Sort}: sorted queries (the sort is in the name).
 * </ul>
 */
public final class UnsupportedTaskSyntax {

  private static final Pattern PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_]*)//");
  private static final Pattern FUNCTION = Pattern.compile("^([A-Za-z][A-Za-z0-9_]*)\\(");
  private static final Pattern OPTION = Pattern.compile("(?:^|\\s)\\+([A-Za-z][A-Za-z0-9_]*)=");

  private UnsupportedTaskSyntax() {}

  /** The kind of unsupported syntax of {@code task}, or {@code null} if the runner can execute it. */
  public static String kindOf(Task task) {
    String query = task.query();
    Matcher m = PREFIX.matcher(query);
    if (m.find()) {
      return m.group(1) + "//";
    }
    m = FUNCTION.matcher(query);
    if (m.find()) {
      return m.group(1) + "(...)";
    }
    m = OPTION.matcher(query);
    if (m.find()) {
      return "+" + m.group(1) + "=";
    }
    if (query.contains("+facets:") || task.category().contains("Facet")) {
      return "facets";
    }
    if (task.category().endsWith("Sort")) {
      return "sort";
    }
    return null;
  }
}
