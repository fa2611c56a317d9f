package org.lucenenvm.bench;

import java.util.Objects;

/**
 * One line of a luceneutil {@code .tasks} file: {@code Category: query text # comment}.
 *
 * @param category workload name, e.g. {@code TermHigh} or {@code AndLowLow}
 * @param query query in luceneutil's syntax ({@code +a +b} is a conjunction, {@code a b} a disjunction)
 * @param comment text after {@code #} (luceneutil puts {@code freq=N} there), empty if none
 */
public record Task(String category, String query, String comment) {

  /** Validates the parts so that {@link #toLine()} parses back to an equal task. */
  public Task {
    Objects.requireNonNull(comment, "comment");
    if (category == null || category.isBlank() || category.contains(":") || category.contains("#")) {
      throw new IllegalArgumentException("task category must be non-blank without ':' or '#': " + category);
    }
    if (query == null || query.isBlank() || query.contains("#") || query.contains("\n")) {
      throw new IllegalArgumentException("task query must be non-blank without '#' or line breaks: " + query);
    }
    category = category.strip();
    query = query.strip();
    comment = comment.strip();
  }

  /** The task as one line of a tasks file. */
  public String toLine() {
    return category + ": " + query + (comment.isEmpty() ? "" : " # " + comment);
  }
}
