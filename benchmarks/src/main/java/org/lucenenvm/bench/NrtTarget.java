package org.lucenenvm.bench;

import java.io.IOException;
import java.util.function.LongSupplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * Lucene's near-real-time search as a {@link RealTimeTarget}: an {@link IndexWriter} on a {@link
 * Configuration}'s codec and directory, fed the documents with the engine's id field ({@link
 * DocumentFactory#withIds()}) so both index and store the same, and a {@link SearcherManager} over it refreshed per {@link
 * RefreshPolicy} (NRT-inf refreshes once, in {@link #warmupReached()}, outside any query's time).
 */
public final class NrtTarget implements RealTimeTarget {

  private final RefreshPolicy policy;
  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager manager;
  private final CorpusIngest.DocumentSink sink;

  private NrtTarget(RefreshPolicy policy, Directory directory, IndexWriter writer, SearcherManager manager) {
    this.policy = policy;
    this.directory = directory;
    this.writer = writer;
    this.manager = manager;
    this.sink = CorpusIngest.into(writer, DocumentFactory.withIds());
  }

  /** A factory of NRT targets indexing into {@code base} with {@code settings}' writer settings. */
  public static Factory factory(Configuration base, RunSettings settings, Analyzer analyzer, RefreshPolicy policy) {
    return workDir -> {
      Directory directory = base.createDirectory(workDir);
      IndexWriter writer = null;
      try {
        writer = new IndexWriter(directory, settings.writerConfig(analyzer, base.codec()));
        return new NrtTarget(policy, directory, writer, new SearcherManager(writer, true, false, SearcherFactories.uncachedFactory()));
      } catch (IOException | RuntimeException e) {
        IOUtils.closeWhileHandlingException(writer, directory);
        throw e;
      }
    };
  }

  @Override
  public void add(LineDoc doc) throws IOException {
    sink.add(doc);
  }

  @Override
  public void warmupReached() throws IOException {
    if (policy.never()) {
      manager.maybeRefreshBlocking();
    }
  }

  @Override
  public View acquire(long sequence, LongSupplier acknowledged) throws IOException {
    if (policy.refreshBefore(sequence)) {
      manager.maybeRefreshBlocking();
    }
    long acked = acknowledged.getAsLong();
    IndexSearcher searcher = manager.acquire();
    return new View((query, k) -> searcher.search(query, k).totalHits, searcher.getIndexReader().numDocs(), acked,
        () -> manager.release(searcher));
  }

  @Override
  public long indexBytes() throws IOException {
    writer.commit();
    return Measurements.indexBytes(directory);
  }

  @Override
  public void finish() {}

  @Override
  public void close() throws IOException {
    IOUtils.close(manager, writer, directory);
  }
}
