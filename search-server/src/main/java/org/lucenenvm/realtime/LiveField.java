package org.lucenenvm.realtime;

import java.util.Collections;
import java.util.HashMap;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * Per-field state of a {@link LiveSegment}: the terms and postings, the norms and the per-doc
 * statistics. The id field (one term in every doc) keeps no statistics: they equal {@code maxDoc}.
 */
final class LiveField {
  final String name;
  final FieldKind kind;
  final FieldInfo info;
  /** First doc that has this field: snapshots below it do not see the field. */
  final int firstDoc;

  /** Terms and their per-term state, what readers look up; null for stored-only fields. */
  final LiveTermHash terms;
  /** Block summaries of the terms that sealed a block; null for stored-only fields. */
  final LiveBlockSummaries blockSummaries;
  /** The writer of the terms and postings (single writer only); null for stored-only fields. */
  final LiveTermPostings postings;
  /** Norms of text fields, else null. */
  final LiveNorms norms;
  /** Statistics, or null for stored-only fields and the id field. */
  private final LiveFieldStats stats;

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
    this.terms = indexed ? new LiveTermHash(pool, name) : null;
    this.blockSummaries = indexed ? new LiveBlockSummaries() : null;
    this.postings = indexed ? new LiveTermPostings(pool, this, terms, blockSummaries) : null;
    this.stats = indexed && !idField ? new LiveFieldStats(capacity) : null;
    this.norms = kind == FieldKind.TEXT ? new LiveNorms(capacity) : null;
  }

  /** Bytes this field holds: pre-sized per-doc arrays plus its terms and postings tables. */
  long ramBytesUsed() {
    return (postings == null ? 0 : postings.ramBytesUsed())
        + (stats == null ? 0 : stats.ramBytesUsed())
        + (norms == null ? 0 : norms.ramBytesUsed());
  }

  /** The norm of {@code doc}, or 1 when it has none (as Lucene's scorers assume). */
  long normOrOne(int doc) {
    return norms != null && norms.has(doc) ? norms.get(doc) : 1L;
  }

  /**
   * Records the statistics of {@code doc} (the writer calls this for every indexed field but the id
   * and every doc, with zeros when the doc lacks the field).
   */
  void recordStats(int doc, int uniqueTerms, int length) {
    stats.record(doc, uniqueTerms, length);
  }

  int docCount(int maxDoc) {
    return stats == null ? maxDoc : stats.docCount(maxDoc);
  }

  long sumDocFreq(int maxDoc) {
    return stats == null ? maxDoc : stats.sumDocFreq(maxDoc);
  }

  long sumTotalTermFreq(int maxDoc) {
    return stats == null ? maxDoc : stats.sumTotalTermFreq(maxDoc);
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
