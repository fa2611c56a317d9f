package org.lucenenvm.bench;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;

/**
 * Searchers as the benchmarks use them: no query cache (as in SPIRIT's comparison, every query does
 * its full work) and no intra-query concurrency (one query runs on one thread).
 */
final class SearcherFactories {

  private SearcherFactories() {}

  /** A searcher over {@code reader} without query cache. */
  static IndexSearcher uncached(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }

  /** A {@link SearcherFactory} making {@link #uncached} searchers. */
  static SearcherFactory uncachedFactory() {
    return new SearcherFactory() {
      @Override
      public IndexSearcher newSearcher(IndexReader reader, IndexReader previousReader) {
        return uncached(reader);
      }
    };
  }
}
