package org.lucenenvm.server;

import java.time.Duration;
import org.apache.lucene.index.QueryTimeoutImpl;
import org.apache.lucene.index.QueryTimeout;

/**
 * The time budget of one search: the request's {@code timeout} parameter (e.g. {@code 500ms},
 * {@code 2s}) up to the server's {@code max-search-timeout}, else the server's {@code
 * search-timeout}. The budget starts once the query is parsed (parsing is bounded by the other
 * {@link QueryLimits}).
 */
final class SearchBudget {
  private SearchBudget() {}

  /** The budget {@code requested} (null: the default) asks for under {@code limits}; 400 if invalid. */
  static Duration of(String requested, QueryLimits limits) {
    if (requested == null) {
      return limits.searchTimeout();
    }
    Duration d;
    try {
      d = TimeSpan.parse(requested);
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, "parameter 'timeout': " + e.getMessage());
    }
    if (d.toMillis() < 1 || d.compareTo(limits.maxSearchTimeout()) > 0) {
      throw new ApiException(
          400,
          "parameter 'timeout' must be between 1ms and max-search-timeout ("
              + limits.maxSearchTimeout().toMillis() + "ms), got '" + requested + "'");
    }
    return d;
  }

  /** A Lucene timeout that expires {@code budget} from now. */
  static QueryTimeout startingNow(Duration budget) {
    return new QueryTimeoutImpl(budget.toMillis());
  }
}
