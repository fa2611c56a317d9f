package org.lucenenvm.realtime;

import java.util.Objects;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.Query;

/**
 * One search of the engine ({@link RtEngine#search}, {@link RtSnapshot#search}).
 *
 * @param query any Lucene query
 * @param k how many top hits to return (at least 1)
 * @param timeout the time budget (may be null: none): collection and term expansion stop once it
 *     says so, and the result reports {@link RtSearchResult#timedOut()}
 * @param withStoredFields whether the hits carry their id and stored fields (else only scores, as
 *     a bare {@link org.apache.lucene.search.TopDocs} would)
 * @param useCache whether the result cache (if the engine has one) may answer and be filled;
 *     without it the answer is the same (documents, order, scores)
 */
public record RtSearchRequest(
    Query query, int k, QueryTimeout timeout, boolean withStoredFields, boolean useCache) {
  /** Validates the request. */
  public RtSearchRequest {
    Objects.requireNonNull(query, "query");
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
  }

  /** The top {@code k} hits of {@code query} with stored fields, no time budget, cache allowed. */
  public static RtSearchRequest of(Query query, int k) {
    return new RtSearchRequest(query, k, null, true, true);
  }

  /** This request with time budget {@code budget} (null: none). */
  public RtSearchRequest withTimeout(QueryTimeout budget) {
    return new RtSearchRequest(query, k, budget, withStoredFields, useCache);
  }

  /** This request with hits that carry only their scores (no id, no stored fields). */
  public RtSearchRequest withoutStoredFields() {
    return new RtSearchRequest(query, k, timeout, false, useCache);
  }

  /** This request with the result cache allowed ({@code true}) or bypassed. */
  public RtSearchRequest withCache(boolean allowed) {
    return new RtSearchRequest(query, k, timeout, withStoredFields, allowed);
  }
}
