package org.lucenenvm.realtime;

/** How the result cache took part in one search. */
public enum CacheOutcome {
  /** The cache was not consulted: the engine has none, the query cannot be keyed, or it was bypassed. */
  BYPASSED,
  /** The query's own entry answered the cached segments. */
  HIT,
  /** A disjunction entry's part for the query's term answered the cached segments (Partial Type I). */
  PARTIAL_HIT,
  /** The cached segments were searched (and the result offered to the cache). */
  MISS;

  /** Whether an entry answered the cached segments ({@link #HIT} or {@link #PARTIAL_HIT}). */
  public boolean isHit() {
    return this == HIT || this == PARTIAL_HIT;
  }
}
