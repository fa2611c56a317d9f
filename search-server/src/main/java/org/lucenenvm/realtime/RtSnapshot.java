package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.IOUtils;

/**
 * A point-in-time view of an engine: every document acknowledged before the snapshot was taken,
 * minus deletions acknowledged before it, over all partitions. Built from each partition's shared
 * view of its current table version plus the live tail bound now; holds references to the segment
 * versions it reads (SPIRIT's D-/N-locks) until closed, so close it promptly.
 *
 * <p>{@link #reader()} is an ordinary {@link MultiReader} (incRef/decRef work as usual; the
 * references are released when its reference count reaches zero). {@link #searcher()} scores with
 * the statistics of all partitions together, so scores equal those of one index holding every
 * document; with a query executor each partition is searched as one slice of its own.
 */
public final class RtSnapshot implements Closeable {
  private final SnapshotReader reader;
  private final IndexSearcher searcher;

  private final Similarity similarity;
  private final Executor executor;

  private RtSnapshot(SnapshotReader reader, Similarity similarity, Executor executor) {
    this.reader = reader;
    this.similarity = similarity;
    this.executor = executor;
    this.searcher = newSearcher(reader);
  }

  /** A searcher over {@code r} (this snapshot's reader or a wrapper with the same leaves). */
  private IndexSearcher newSearcher(IndexReader r) {
    IndexSearcher s =
        executor == null
            ? new IndexSearcher(r)
            : new PartitionSlicedSearcher(r, executor, reader.leavesPerPartition);
    s.setSimilarity(similarity);
    s.setQueryCache(null);
    return s;
  }

  /** Binds a snapshot of {@code partitions}; releases whatever it bound if that fails. */
  static RtSnapshot of(Partition[] partitions, Similarity similarity, Executor executor)
      throws IOException {
    List<TableView.Bound> bounds = new ArrayList<>(partitions.length);
    boolean success = false;
    try {
      List<IndexReader> readers = new ArrayList<>();
      int[] leavesPerPartition = new int[partitions.length];
      for (int p = 0; p < partitions.length; p++) {
        TableView.Bound bound = partitions[p].table().bind();
        bounds.add(bound);
        for (IndexReader r : bound.readers()) {
          readers.add(r);
          leavesPerPartition[p] += r.leaves().size();
        }
      }
      SnapshotReader reader =
          new SnapshotReader(readers.toArray(new IndexReader[0]), bounds, leavesPerPartition);
      success = true;
      return new RtSnapshot(reader, similarity, executor);
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(bounds);
      }
    }
  }

  /** The snapshot's reader. */
  public IndexReader reader() {
    return reader;
  }

  /**
   * A searcher over {@link #reader()} with the engine's similarity and no query cache; set a
   * {@link org.apache.lucene.index.QueryTimeout} on it as on any searcher.
   */
  public IndexSearcher searcher() {
    return searcher;
  }

  /**
   * The top {@code k} hits of {@code query} in this snapshot: the one search path of the engine
   * ({@link RtEngine#search} runs it on a fresh snapshot). As with {@link
   * IndexSearcher#search(Query, int)}, the total hit count is exact up to 1,000 hits and may be a
   * lower bound beyond. With a {@code timeout} (may be null) the search stops collecting once it
   * says so and the result reports {@link RtSearchResult#timedOut()}, with the hits found until
   * then. Without {@code withStoredFields} the hits carry only scores (id null, no fields), as a
   * bare {@link TopDocs} would. With a timeout, term expansion (a query's rewrite) is bounded by
   * it too ({@link TimeLimitedReader}); if it runs out there, before any hit is collected, the
   * result is empty and timed out.
   */
  public RtSearchResult search(Query query, int k, QueryTimeout timeout, boolean withStoredFields)
      throws IOException {
    IndexSearcher s = timeout == null ? searcher : newSearcher(TimeLimitedReader.wrap(reader, timeout));
    s.setTimeout(timeout);
    TopDocs top;
    try {
      top = s.search(query, k);
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      // The time ran out while the query was expanding terms (rewrite), before collection.
      return new RtSearchResult(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO), List.of(), true);
    }
    List<RtHit> hits = new ArrayList<>(top.scoreDocs.length);
    StoredFields stored = withStoredFields ? s.storedFields() : null;
    for (ScoreDoc sd : top.scoreDocs) {
      hits.add(stored == null ? new RtHit(null, sd.score, Map.of()) : hit(stored, sd));
    }
    return new RtSearchResult(top.totalHits, hits, s.timedOut());
  }

  /** Loads the stored fields of one hit. */
  static RtHit hit(StoredFields stored, ScoreDoc sd) throws IOException {
    Document doc = stored.document(sd.doc);
    Map<String, String> fields = new LinkedHashMap<>();
    String id = null;
    for (IndexableField f : doc.getFields()) {
      if (RtSchema.ID_FIELD.equals(f.name())) {
        id = f.stringValue();
      } else {
        fields.put(f.name(), f.stringValue());
      }
    }
    return new RtHit(id, sd.score, fields);
  }

  /** Releases this snapshot's reference to the reader. */
  @Override
  public void close() throws IOException {
    reader.decRef();
  }

  private static final class SnapshotReader extends MultiReader {
    private final List<TableView.Bound> bounds;
    private final int[] leavesPerPartition;

    SnapshotReader(IndexReader[] readers, List<TableView.Bound> bounds, int[] leavesPerPartition)
        throws IOException {
      super(readers, false);
      this.bounds = bounds;
      this.leavesPerPartition = leavesPerPartition;
    }

    @Override
    protected synchronized void doClose() throws IOException {
      try {
        super.doClose();
      } finally {
        IOUtils.close(bounds);
      }
    }
  }

  /** Searches each partition's leaves as one slice (one task per partition). */
  private static final class PartitionSlicedSearcher extends IndexSearcher {
    private final int[] leavesPerPartition;

    PartitionSlicedSearcher(IndexReader reader, Executor executor, int[] leavesPerPartition) {
      super(reader, executor);
      this.leavesPerPartition = leavesPerPartition;
    }

    @Override
    protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
      List<LeafSlice> slices = new ArrayList<>(leavesPerPartition.length);
      int start = 0;
      for (int count : leavesPerPartition) {
        if (count > 0) {
          List<LeafReaderContextPartition> parts = new ArrayList<>(count);
          for (LeafReaderContext leaf : leaves.subList(start, start + count)) {
            parts.add(LeafReaderContextPartition.createForEntireSegment(leaf));
          }
          slices.add(new LeafSlice(parts));
        }
        start += count;
      }
      return slices.toArray(new LeafSlice[0]);
    }
  }
}
