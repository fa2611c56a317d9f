package org.lucenenvm.realtime;

import java.util.Collections;
import java.util.HashMap;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.RamUsageEstimator;
import org.apache.lucene.util.FixedBitSet;

/**
 * Per-field state of a {@link LiveSegment}: the terms and postings, the norms, and per-doc prefix sums of
 * the field statistics so any snapshot {@code [0, maxDoc)} gets exact {@code docCount}, {@code
 * sumDocFreq} and {@code sumTotalTermFreq} in O(1). Arrays are sized to the segment capacity up
 * front; slots are written by the single writer before the segment publishes the doc.
 */
final class LiveField {
  final String name;
  final FieldKind kind;
  final FieldInfo info;
  /** First doc that has this field: snapshots below it do not see the field. */
  final int firstDoc;

  /** Terms and postings, or null for stored-only fields. */
  final LiveTermPostings postings;
  final long[] norms;
  final FixedBitSet docsWithNorms;
  private final int[] docCountPrefix;
  private final long[] sumDocFreqPrefix;
  private final long[] sumTotalTermFreqPrefix;

  LiveField(
      String name,
      FieldKind kind,
      int number,
      int firstDoc,
      int capacity,
      boolean idField,
      LiveBytePool pool) {
    this.name = name;
    this.kind = kind;
    this.firstDoc = firstDoc;
    this.info = fieldInfo(name, kind, number, idField);
    boolean indexed = kind != FieldKind.STORED;
    this.postings = indexed ? new LiveTermPostings(pool, this) : null;
    this.docCountPrefix = indexed ? new int[capacity + 1] : null;
    this.sumDocFreqPrefix = indexed ? new long[capacity + 1] : null;
    this.sumTotalTermFreqPrefix = indexed ? new long[capacity + 1] : null;
    boolean hasNorms = kind == FieldKind.TEXT;
    this.norms = hasNorms ? new long[capacity] : null;
    this.docsWithNorms = hasNorms ? new FixedBitSet(capacity) : null;
  }

  /** Bytes this field holds: pre-sized per-doc arrays plus its terms and postings tables. */
  long ramBytesUsed() {
    long bytes = 0;
    if (docCountPrefix != null) {
      bytes +=
          RamUsageEstimator.sizeOf(docCountPrefix)
              + RamUsageEstimator.sizeOf(sumDocFreqPrefix)
              + RamUsageEstimator.sizeOf(sumTotalTermFreqPrefix)
              + postings.ramBytesUsed();
    }
    if (norms != null) {
      bytes += RamUsageEstimator.sizeOf(norms) + docsWithNorms.ramBytesUsed();
    }
    return bytes;
  }

  /** The norm of {@code doc}, or 1 when it has none (as Lucene's scorers assume). */
  long normOrOne(int doc) {
    return norms != null && docsWithNorms.get(doc) ? norms[doc] : 1L;
  }

  /**
   * Records the statistics of {@code doc} (the writer calls this for every indexed field and every
   * doc, with zeros when the doc lacks the field).
   */
  void recordStats(int doc, boolean hasTerms, int uniqueTerms, int length) {
    docCountPrefix[doc + 1] = docCountPrefix[doc] + (hasTerms ? 1 : 0);
    sumDocFreqPrefix[doc + 1] = sumDocFreqPrefix[doc] + uniqueTerms;
    sumTotalTermFreqPrefix[doc + 1] = sumTotalTermFreqPrefix[doc] + length;
  }

  int docCount(int maxDoc) {
    return docCountPrefix[maxDoc];
  }

  long sumDocFreq(int maxDoc) {
    return sumDocFreqPrefix[maxDoc];
  }

  long sumTotalTermFreq(int maxDoc) {
    return sumTotalTermFreqPrefix[maxDoc];
  }

  boolean hasPositions() {
    return kind == FieldKind.TEXT;
  }

  private static FieldInfo fieldInfo(String name, FieldKind kind, int number, boolean idField) {
    IndexOptions options =
        switch (kind) {
          case TEXT -> IndexOptions.DOCS_AND_FREQS_AND_POSITIONS;
          case KEYWORD -> IndexOptions.DOCS;
          case STORED -> IndexOptions.NONE;
        };
    return new FieldInfo(
        name,
        number,
        false,
        kind != FieldKind.TEXT,
        false,
        options,
        idField ? DocValuesType.BINARY : DocValuesType.NONE,
        DocValuesSkipIndexType.NONE,
        -1,
        new HashMap<>(Collections.emptyMap()),
        0,
        0,
        0,
        0,
        VectorEncoding.FLOAT32,
        VectorSimilarityFunction.EUCLIDEAN,
        false,
        false);
  }
}
