package org.lucenenvm.cache;

/**
 * A result cache's counters since it was opened, and its sizes.
 *
 * @param hits queries answered from their own entry (only the tail searched)
 * @param partialHits single-term queries answered from a term part of a disjunction's entry
 *     (Partial Type I)
 * @param tailResumes hits (and partial hits) whose tail search resumed where the query's previous
 *     tail search ended
 *     (only the documents added since were searched; see {@link TailResult})
 * @param misses keyable queries computed in full
 * @param evictions entries dropped by the policy or for room
 * @param invalidations entries dropped because their segments were merged away, their epoch ended
 *     or a cached hit was deleted
 * @param rejected results the inclusion threshold (or their size) kept out
 * @param entries resident entries
 * @param bytes bytes the entries take
 * @param capacityBytes bytes available for entries
 */
public record ResultCacheStats(
    long hits,
    long partialHits,
    long tailResumes,
    long misses,
    long evictions,
    long invalidations,
    long rejected,
    int entries,
    long bytes,
    long capacityBytes) {
  /** (hits + partial hits) / lookups, or 0 before any. */
  public double hitRate() {
    long lookups = hits + partialHits + misses;
    return lookups == 0 ? 0 : (double) (hits + partialHits) / lookups;
  }
}
