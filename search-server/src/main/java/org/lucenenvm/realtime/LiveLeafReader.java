package org.lucenenvm.realtime;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DocValuesSkipper;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafMetaData;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.TermVectors;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;

/**
 * A point-in-time {@link LeafReader} over the first {@code maxDoc} documents of a {@link
 * LiveSegment}. Creating one allocates a few objects; it never blocks the writer. Offers postings
 * (docs, freqs, positions), norms, stored fields and the id's binary doc values; no term vectors,
 * points or vectors.
 */
final class LiveLeafReader extends LeafReader {
  private static final LeafMetaData META =
      new LeafMetaData(Version.LATEST.major, Version.LATEST, null, false);

  private final LiveSegment segment;
  private final int maxDoc;
  private final DeletedDocs deletions;
  private final FieldInfos fieldInfos;

  LiveLeafReader(LiveSegment segment, int maxDoc, DeletedDocs deletions) {
    this.segment = segment;
    this.maxDoc = maxDoc;
    this.deletions = deletions;
    this.fieldInfos = segment.fieldInfos(maxDoc);
  }

  @Override
  public Terms terms(String field) {
    LiveField f = segment.field(field, maxDoc);
    if (f == null || f.terms == null || f.docCount(maxDoc) == 0) {
      return null;
    }
    return new LiveTerms(f, maxDoc);
  }

  @Override
  public NumericDocValues getNormValues(String field) {
    LiveField f = segment.field(field, maxDoc);
    if (f == null || f.norms == null) {
      return null;
    }
    return new Norms(f.norms, maxDoc);
  }

  @Override
  public BinaryDocValues getBinaryDocValues(String field) {
    return RtSchema.ID_FIELD.equals(field) && maxDoc > 0 ? new Ids() : null;
  }

  @Override
  public NumericDocValues getNumericDocValues(String field) {
    return null;
  }

  @Override
  public SortedDocValues getSortedDocValues(String field) {
    return null;
  }

  @Override
  public SortedNumericDocValues getSortedNumericDocValues(String field) {
    return null;
  }

  @Override
  public SortedSetDocValues getSortedSetDocValues(String field) {
    return null;
  }

  @Override
  public DocValuesSkipper getDocValuesSkipper(String field) {
    return null;
  }

  @Override
  public FloatVectorValues getFloatVectorValues(String field) {
    return null;
  }

  @Override
  public ByteVectorValues getByteVectorValues(String field) {
    return null;
  }

  @Override
  public void searchNearestVectors(
      String field, float[] target, KnnCollector knnCollector, AcceptDocs acceptDocs) {
    // no vector fields in a live segment: nothing to collect
  }

  @Override
  public void searchNearestVectors(
      String field, byte[] target, KnnCollector knnCollector, AcceptDocs acceptDocs) {
    // no vector fields in a live segment: nothing to collect
  }

  @Override
  public FieldInfos getFieldInfos() {
    return fieldInfos;
  }

  @Override
  public Bits getLiveDocs() {
    return deletions == null ? null : deletions.liveDocs(maxDoc);
  }

  @Override
  public PointValues getPointValues(String field) {
    return null;
  }

  @Override
  public void checkIntegrity() {
    // in-memory structure: nothing to checksum
  }

  @Override
  public LeafMetaData getMetaData() {
    return META;
  }

  @Override
  public TermVectors termVectors() {
    return TermVectors.EMPTY;
  }

  @Override
  public int numDocs() {
    return deletions == null ? maxDoc : maxDoc - deletions.count();
  }

  @Override
  public int maxDoc() {
    return maxDoc;
  }

  @Override
  public StoredFields storedFields() {
    return new StoredFields() {
      @Override
      public void document(int docID, StoredFieldVisitor visitor) throws IOException {
        if (docID < 0 || docID >= maxDoc) {
          throw new IllegalArgumentException("doc " + docID + " out of [0, " + maxDoc + ")");
        }
        if (visit(visitor, fieldInfos.fieldInfo(0), segment.id(docID).utf8ToString())) {
          return;
        }
        LogDocumentCodec.visitFields(
            segment.storedDocument(docID),
            (name, value) -> visit(visitor, fieldInfos.fieldInfo(name), value));
      }
    };
  }

  /** Offers one stored value; returns true when the visitor wants no more. */
  private static boolean visit(StoredFieldVisitor visitor, FieldInfo info, String value)
      throws IOException {
    switch (visitor.needsField(info)) {
      case YES -> visitor.stringField(info, value);
      case STOP -> {
        return true;
      }
      case NO -> {}
    }
    return false;
  }

  @Override
  protected void doClose() {
    // a snapshot holds no resources; the segment is released by its SegmentVersion
  }

  @Override
  public CacheHelper getCoreCacheHelper() {
    return null;
  }

  @Override
  public CacheHelper getReaderCacheHelper() {
    return null;
  }

  /** Norms of the docs that have the field, below maxDoc. */
  private static final class Norms extends NumericDocValues {
    private final LiveNorms norms;
    private final int maxDoc;
    private int doc = -1;

    Norms(LiveNorms norms, int maxDoc) {
      this.norms = norms;
      this.maxDoc = maxDoc;
    }

    @Override
    public long longValue() {
      return norms.get(doc);
    }

    @Override
    public boolean advanceExact(int target) {
      doc = target;
      return norms.has(target);
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() {
      return advance(doc + 1);
    }

    @Override
    public int advance(int target) {
      int next = norms.nextDoc(target, maxDoc);
      return doc = next < 0 ? NO_MORE_DOCS : next;
    }

    @Override
    public long cost() {
      return maxDoc;
    }

    /** Bulk lookup (TermScorer's path): a direct array read per doc. */
    @Override
    public void longValues(
        int size, int[] docIds, int docsOffset, long[] out, int outOffset, long defaultValue) {
      for (int i = 0; i < size; i++) {
        int d = docIds[docsOffset + i];
        out[outOffset + i] = norms.has(d) ? norms.get(d) : defaultValue;
      }
    }
  }

  /** Every doc has an id. */
  private final class Ids extends BinaryDocValues {
    private int doc = -1;

    @Override
    public BytesRef binaryValue() {
      return segment.id(doc);
    }

    @Override
    public boolean advanceExact(int target) {
      doc = target;
      return true;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() {
      return advance(doc + 1);
    }

    @Override
    public int advance(int target) {
      return doc = target >= maxDoc ? NO_MORE_DOCS : target;
    }

    @Override
    public long cost() {
      return maxDoc;
    }
  }
}
