package org.lucenenvm.bench;

import java.util.List;
import org.apache.lucene.search.Query;

/** Queries handed out one at a time, in order, starting over after the last (a JMH harness's stream). */
final class QueryCycle {
  private final List<Query> queries;
  private int next;

  QueryCycle(List<Query> queries) {
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("no queries to cycle through");
    }
    this.queries = List.copyOf(queries);
  }

  /** The queries, in cycle order. */
  List<Query> all() {
    return queries;
  }

  /** The next query of the cycle. */
  Query next() {
    Query query = queries.get(next);
    next = next + 1 == queries.size() ? 0 : next + 1;
    return query;
  }
}
