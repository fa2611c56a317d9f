package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.CompositeReader;
import org.apache.lucene.index.Fields;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermVectors;

/**
 * A composite reader over a fixed list of leaves that its owner keeps open for the reader's whole
 * life: one per query, so cheap to build. Lucene's {@code BaseCompositeReader} (under {@code
 * MultiReader}) takes a reference on every sub-reader and registers itself in each one's
 * synchronized weak set of parents; a snapshot built per query did that on the shared reader of
 * its table view, and the put into that ever-growing set took 4–5 % of a light query's CPU in a
 * profile. This reader does neither: it only sums and dispatches, and closing it closes nothing
 * but what {@link #doClose} releases.
 */
abstract class LeafListReader extends CompositeReader {
  private final List<LeafReader> leaves;
  /** Doc base of each leaf, then {@link #maxDoc}. */
  private final int[] starts;
  /** -1 until first asked for. */
  private volatile int numDocs = -1;

  LeafListReader(List<LeafReader> leaves) {
    this.leaves = List.copyOf(leaves);
    this.starts = new int[this.leaves.size() + 1];
    long maxDoc = 0;
    for (int i = 0; i < this.leaves.size(); i++) {
      starts[i] = (int) maxDoc;
      maxDoc += this.leaves.get(i).maxDoc();
    }
    if (maxDoc > IndexWriter.MAX_DOCS) {
      throw new IllegalArgumentException(
          "too many documents in one snapshot: " + maxDoc + " > " + IndexWriter.MAX_DOCS);
    }
    starts[this.leaves.size()] = (int) maxDoc;
  }

  @Override
  protected final List<? extends IndexReader> getSequentialSubReaders() {
    return leaves;
  }

  @Override
  public final int maxDoc() {
    return starts[leaves.size()];
  }

  @Override
  public final int numDocs() {
    int n = numDocs;
    if (n < 0) {
      n = 0;
      for (LeafReader leaf : leaves) {
        n += leaf.numDocs();
      }
      numDocs = n; // racing threads compute the same count
    }
    return n;
  }

  @Override
  public final StoredFields storedFields() throws IOException {
    ensureOpen();
    StoredFields[] perLeaf = new StoredFields[leaves.size()];
    return new StoredFields() {
      @Override
      public void prefetch(int docID) throws IOException {
        int i = leafOf(docID);
        leafStoredFields(perLeaf, i).prefetch(docID - starts[i]);
      }

      @Override
      public void document(int docID, StoredFieldVisitor visitor) throws IOException {
        int i = leafOf(docID);
        leafStoredFields(perLeaf, i).document(docID - starts[i], visitor);
      }
    };
  }

  private StoredFields leafStoredFields(StoredFields[] perLeaf, int i) throws IOException {
    if (perLeaf[i] == null) {
      perLeaf[i] = leaves.get(i).storedFields();
    }
    return perLeaf[i];
  }

  @Override
  public final TermVectors termVectors() throws IOException {
    ensureOpen();
    TermVectors[] perLeaf = new TermVectors[leaves.size()];
    return new TermVectors() {
      @Override
      public Fields get(int docID) throws IOException {
        int i = leafOf(docID);
        if (perLeaf[i] == null) {
          perLeaf[i] = leaves.get(i).termVectors();
        }
        return perLeaf[i].get(docID - starts[i]);
      }
    };
  }

  /** The leaf holding {@code docID}, checked against this reader's doc id range. */
  private int leafOf(int docID) {
    if (docID < 0 || docID >= maxDoc()) {
      throw new IllegalArgumentException(
          "docID must be in [0, " + maxDoc() + ") (got docID=" + docID + ")");
    }
    return ReaderUtil.subIndex(docID, starts);
  }

  @Override
  public final int docFreq(Term term) throws IOException {
    return Math.toIntExact(sum(leaf -> leaf.docFreq(term)));
  }

  @Override
  public final long totalTermFreq(Term term) throws IOException {
    return sum(leaf -> leaf.totalTermFreq(term));
  }

  @Override
  public final long getSumDocFreq(String field) throws IOException {
    return sum(leaf -> leaf.getSumDocFreq(field));
  }

  @Override
  public final int getDocCount(String field) throws IOException {
    return Math.toIntExact(sum(leaf -> leaf.getDocCount(field)));
  }

  @Override
  public final long getSumTotalTermFreq(String field) throws IOException {
    return sum(leaf -> leaf.getSumTotalTermFreq(field));
  }

  /** A per-leaf statistic that this reader's is the sum of. */
  @FunctionalInterface
  private interface LeafStatistic {
    long of(LeafReader leaf) throws IOException;
  }

  private long sum(LeafStatistic statistic) throws IOException {
    ensureOpen();
    long total = 0;
    for (LeafReader leaf : leaves) {
      total += statistic.of(leaf);
    }
    return total;
  }

  /** None: a reader per query is not worth caching anything on. */
  @Override
  public final CacheHelper getReaderCacheHelper() {
    return null;
  }
}
