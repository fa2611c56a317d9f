package org.lucenenvm.realtime;

import java.io.IOException;
import org.apache.lucene.index.ExitableDirectoryReader.ExitableFilterAtomicReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.QueryTimeout;

/**
 * A snapshot reader whose term, point and doc-value iteration stops with {@link
 * org.apache.lucene.index.ExitableDirectoryReader.ExitingReaderException} once a {@link
 * QueryTimeout} expires (Lucene's {@link ExitableFilterAtomicReader} on every leaf), so that the
 * term expansion of a query rewrite is bounded by the same budget as hit collection. The wrapped
 * reader is not closed with the wrapper; the snapshot owns it.
 */
final class TimeLimitedReader {
  private TimeLimitedReader() {}

  static IndexReader wrap(IndexReader reader, QueryTimeout timeout) throws IOException {
    LeafReader[] leaves = new LeafReader[reader.leaves().size()];
    for (LeafReaderContext leaf : reader.leaves()) {
      leaves[leaf.ord] = new ExitableFilterAtomicReader(leaf.reader(), timeout);
    }
    return new MultiReader(leaves, false);
  }
}
