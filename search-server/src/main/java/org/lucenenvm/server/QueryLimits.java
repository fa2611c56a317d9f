package org.lucenenvm.server;

import java.time.Duration;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.automaton.Operations;

/**
 * Bounds on what one search may cost, so that no query can hold a core for long: the size of a
 * regular expression (its text and the automaton it describes), the work spent making automata
 * deterministic, the number of terms a multi-term query (wildcard, prefix, regexp, fuzzy, range)
 * expands to, the number of boolean clauses, and the time spent collecting hits.
 *
 * @param maxRegexpLength longest regular expression or wildcard pattern, in characters (400
 *     beyond)
 * @param maxRegexpStates largest automaton a regular expression may describe, estimated from its
 *     syntax tree before any automaton is built (so {@code /a{1000000}/} is refused at once)
 * @param determinizeWorkLimit Lucene's determinization effort limit for regexp and wildcard
 *     automata ({@link Operations#DEFAULT_DETERMINIZE_WORK_LIMIT} by default; 400 beyond)
 * @param maxExpansions terms a multi-term query is rewritten to at most (Lucene's top-terms
 *     rewrite: the best {@code maxExpansions} terms are searched, the others ignored)
 * @param maxClauseCount Lucene's {@link IndexSearcher#setMaxClauseCount} (JVM-wide): a query
 *     with more clauses is refused with 400
 * @param searchTimeout time budget of a search that does not ask for one
 * @param maxSearchTimeout largest budget a search may ask for ({@code timeout=} parameter)
 */
public record QueryLimits(
    int maxRegexpLength,
    int maxRegexpStates,
    int determinizeWorkLimit,
    int maxExpansions,
    int maxClauseCount,
    Duration searchTimeout,
    Duration maxSearchTimeout) {

  /** The defaults: 1,000 characters, 10,000 states, Lucene's limits, 10 s budget, 60 s at most. */
  public static final QueryLimits DEFAULTS =
      new QueryLimits(
          1000,
          10_000,
          Operations.DEFAULT_DETERMINIZE_WORK_LIMIT,
          1024,
          1024,
          Duration.ofSeconds(10),
          Duration.ofSeconds(60));

  /** Validates every limit, naming the one that is wrong. */
  public QueryLimits {
    require(maxRegexpLength >= 1, "maxRegexpLength must be >= 1, got " + maxRegexpLength);
    require(maxRegexpStates >= 1, "maxRegexpStates must be >= 1, got " + maxRegexpStates);
    require(determinizeWorkLimit >= 1, "determinizeWorkLimit must be >= 1, got " + determinizeWorkLimit);
    require(maxClauseCount >= 1, "maxClauseCount must be >= 1, got " + maxClauseCount);
    require(
        maxExpansions >= 1 && maxExpansions <= maxClauseCount,
        "maxExpansions must be in 1..maxClauseCount (" + maxClauseCount + "), got " + maxExpansions);
    require(
        searchTimeout != null && searchTimeout.toMillis() >= 1,
        "searchTimeout must be >= 1 ms, got " + searchTimeout);
    require(
        maxSearchTimeout != null && maxSearchTimeout.compareTo(searchTimeout) >= 0,
        "maxSearchTimeout must be >= searchTimeout (" + searchTimeout + "), got " + maxSearchTimeout);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  /** These limits with {@code maxRegexpLength} replaced. */
  public QueryLimits withMaxRegexpLength(int v) {
    return new QueryLimits(v, maxRegexpStates, determinizeWorkLimit, maxExpansions, maxClauseCount, searchTimeout, maxSearchTimeout);
  }

  /** These limits with {@code maxRegexpStates} replaced. */
  public QueryLimits withMaxRegexpStates(int v) {
    return new QueryLimits(maxRegexpLength, v, determinizeWorkLimit, maxExpansions, maxClauseCount, searchTimeout, maxSearchTimeout);
  }

  /** These limits with {@code determinizeWorkLimit} replaced. */
  public QueryLimits withDeterminizeWorkLimit(int v) {
    return new QueryLimits(maxRegexpLength, maxRegexpStates, v, maxExpansions, maxClauseCount, searchTimeout, maxSearchTimeout);
  }

  /** These limits with {@code maxExpansions} and {@code maxClauseCount} replaced. */
  public QueryLimits withExpansions(int maxExpansions, int maxClauseCount) {
    return new QueryLimits(maxRegexpLength, maxRegexpStates, determinizeWorkLimit, maxExpansions, maxClauseCount, searchTimeout, maxSearchTimeout);
  }

  /** These limits with the default and the largest search time budget replaced. */
  public QueryLimits withSearchTimeouts(Duration budget, Duration max) {
    return new QueryLimits(maxRegexpLength, maxRegexpStates, determinizeWorkLimit, maxExpansions, maxClauseCount, budget, max);
  }
}
