package org.lucenenvm.bench;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TotalHits;

/**
 * What a WRT run ingests into and queries at the same time: Lucene's near-real-time search over an
 * {@code IndexWriter} ({@link NrtTarget}) or the real-time engine ({@link EngineTarget}).
 *
 * <p>One thread calls {@link #add}; any number of query threads call {@link #acquire}. Whatever a
 * view's searcher can see is the target's business; the benchmark only counts it through {@link
 * View#visibleDocs()}.
 */
public interface RealTimeTarget extends Closeable {

  /** Opens a target whose files live in or under a fresh, empty {@code workDir}. */
  @FunctionalInterface
  interface Factory {
    /** A new, empty target. */
    RealTimeTarget open(Path workDir) throws IOException;
  }

  /** Runs one query on a view's point-in-time state. */
  @FunctionalInterface
  interface Searcher {
    /** The number of hits of {@code query} (collecting the top {@code k}, as a search does). */
    TotalHits search(Query query, int k) throws IOException;
  }

  /**
   * A searcher held by one query, released by {@link #close()}.
   *
   * @param searcher runs the query the way the target serves queries (NRT: {@code
   *     IndexSearcher.search}; the engine: its one search path, {@code RtSnapshot.search})
   * @param visibleDocs documents the searcher's reader holds (live, not deleted), counted from the
   *     reader itself
   * @param acknowledgedBefore documents acknowledged just before the searcher was taken (after any
   *     refresh)
   * @param release gives the searcher back
   */
  record View(Searcher searcher, long visibleDocs, long acknowledgedBefore, Closeable release)
      implements Closeable {
    @Override
    public void close() throws IOException {
      release.close();
    }
  }

  /** Indexes one document; it is acknowledged when this returns. Ingest thread only. */
  void add(LineDoc doc) throws IOException;

  /** Called in the ingest thread right after the warm-up share was acknowledged, before timing. */
  void warmupReached() throws IOException;

  /**
   * The searcher for query number {@code sequence} (0-based over all threads); {@code acknowledged}
   * is read right before the searcher is taken. Called inside the query's timed latency, so any
   * refresh it does is paid by that query.
   */
  View acquire(long sequence, LongSupplier acknowledged) throws IOException;

  /** Bytes the index takes once ingestion has ended (may commit first). */
  long indexBytes() throws IOException;

  /**
   * Called once after the run was measured, before {@link #close()}: a target may measure more
   * (e.g. shutdown and restart) here.
   */
  void finish() throws IOException;
}
