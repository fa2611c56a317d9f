package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.IOUtils;

/**
 * A point-in-time view of an engine: every document acknowledged before the snapshot was taken,
 * minus deletions acknowledged before it. Holds references to the segment versions it reads
 * (SPIRIT's D-/N-locks) until closed; close it promptly, as a held DRAM copy cannot be freed.
 *
 * <p>{@link #reader()} is an ordinary {@link MultiReader} (incRef/decRef work as usual; the
 * versions are released when its reference count reaches zero).
 */
public final class RtSnapshot implements Closeable {
  private final SnapshotReader reader;
  private final IndexSearcher searcher;

  RtSnapshot(List<LeafReader> leaves, List<SegmentVersion> held, Similarity similarity)
      throws IOException {
    this.reader = new SnapshotReader(leaves.toArray(new LeafReader[0]), held);
    this.searcher = new IndexSearcher(reader);
    this.searcher.setSimilarity(similarity);
  }

  /** The snapshot's reader. */
  public IndexReader reader() {
    return reader;
  }

  /** A searcher over {@link #reader()} using the engine's similarity. */
  public IndexSearcher searcher() {
    return searcher;
  }

  /** Releases this snapshot's reference to the reader. */
  @Override
  public void close() throws IOException {
    reader.decRef();
  }

  static void release(List<SegmentVersion> versions) throws IOException {
    IOUtils.applyToAll(versions, SegmentVersion::decRef);
  }

  private static final class SnapshotReader extends MultiReader {
    private final List<SegmentVersion> held;

    SnapshotReader(LeafReader[] leaves, List<SegmentVersion> held) throws IOException {
      super(leaves, false);
      this.held = held;
    }

    @Override
    protected synchronized void doClose() throws IOException {
      try {
        super.doClose();
      } finally {
        release(held);
      }
    }
  }
}
