package org.lucenenvm.realtime;

/**
 * Which documents a query's scoring statistics (BM25's document count, average field length and
 * document frequencies) come from.
 */
public enum StatisticsMode {
  /**
   * Every document the query sees, live tail included (Lucene's default): each add changes the
   * statistics of the next query.
   */
  PER_QUERY,
  /**
   * The Lucene segments of the current descriptor tables (the statistics epoch), not the live
   * tail: the statistics change only when a table's segments change (a flush, every segment-size
   * documents, or a merge), so a result computed over those segments keeps its scores while
   * documents are added. Documents are visible exactly as with {@link #PER_QUERY}; only their
   * scores use statistics that leave out the tail. A term or field the epoch does not hold yet
   * (only in the tail) scores as if one document held it. Used by a snapshot only while its epoch
   * has a segment and holds at least as many documents as its tail; otherwise it scores {@link
   * #PER_QUERY} ({@link RtSnapshot#statistics()}). Needed by the result cache, whose cached scores
   * must stay exact across adds.
   */
  PER_EPOCH
}
