package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * The in-DRAM segment that absorbs new documents (SPIRIT's ingested segment), laid out for reading:
 * per field a term table and block-structured postings in shared byte slabs ({@link LiveTermHash},
 * written by {@link LiveTermPostings} in the layout of {@link LiveBlockLayout}), dense norms and
 * per-doc prefix sums of the statistics, and the stored documents, all per-doc arrays pre-sized to
 * {@code capacity}.
 *
 * <p><b>Memory model.</b> Exactly one thread calls {@link #add}; any number of threads read
 * through {@link #reader}. The published document count is the visibility fence: {@link #add}
 * writes every slot of a document (postings, norms, statistics, stored fields), then stores {@code
 * published = doc + 1} (volatile). A reader loads {@code published} first; the volatile store
 * happens-before that load, so every write for documents {@code [0, published)} is visible to it.
 * Writes for later documents may also be visible, so readers bound everything by their {@code
 * maxDoc} and load per-term state with acquire semantics (see {@link LiveTermHash}); they never
 * decode a posting that is not yet published.
 *
 * <p><b>Failed adds.</b> If {@link #add} throws (a term or positions Lucene would refuse, or an
 * allocation failure), every term's postings, the norms and the fields the document created are
 * rolled back before the exception leaves: the document leaves nothing behind, and the next add
 * reuses its doc id.
 */
final class LiveSegment {
  private final int capacity;
  private final LiveBytePool pool = new LiveBytePool();
  /** Fields in creation order; a field's number is its index. Slots written before publishing. */
  private final LiveField[] fieldsByNumber;
  private final AtomicReferenceArray<FieldInfos> fieldInfosByCount;
  private final Map<String, LiveField> fieldsByName = new ConcurrentHashMap<>();
  /** Per doc, its stored fields as {@link LogDocumentCodec} Document bytes (one object per doc). */
  private final byte[][] stored;
  /** Per doc, the id field's term id of its id (the id's bytes live in that field's term hash). */
  private final int[] idTerms;

  private volatile int published;
  private volatile long ramBytes;
  private long storedBytes;
  private int fieldCount;
  private int nextDoc;
  private final List<LiveField> indexedFields = new ArrayList<>();

  LiveSegment(RtSchema schema, int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("segment capacity must be > 0, got " + capacity);
    }
    this.capacity = capacity;
    this.fieldsByNumber = new LiveField[schema.fields().size() + 1];
    this.fieldInfosByCount = new AtomicReferenceArray<>(fieldsByNumber.length + 1);
    this.stored = new byte[capacity][];
    this.idTerms = new int[capacity];
    createField(RtSchema.ID_FIELD, FieldKind.KEYWORD, 0, true);
    ramBytes = computeRamBytes();
  }

  /** Documents visible to readers (the visibility fence). */
  int published() {
    return published;
  }

  boolean isFull() {
    return nextDoc == capacity;
  }

  /**
   * DRAM this segment holds: slabs, per-term and per-doc arrays as allocated (not as filled), and
   * the stored documents' bytes.
   */
  long ramBytesUsed() {
    return ramBytes;
  }

  /** The stored documents' share of {@link #ramBytesUsed}. */
  long storedBytesUsed() {
    return storedBytes;
  }

  /**
   * Adds a document and publishes it; returns its doc id. Single writer only. On an exception
   * nothing of the document remains (see the class documentation).
   */
  int add(InvertedDocument doc) {
    int docId = nextDoc;
    if (docId == capacity) {
      throw new IllegalStateException("live segment is full (" + capacity + " docs)");
    }
    int fieldsBefore = fieldCount;
    try {
      invert(doc, docId);
    } catch (RuntimeException | Error e) {
      rollback(docId, fieldsBefore);
      throw e;
    }
    for (LiveField field : indexedFields) {
      field.postings.commit();
    }
    storedBytes += RamUsageEstimator.sizeOf(doc.stored());
    stored[docId] = doc.stored();
    nextDoc = docId + 1;
    ramBytes = computeRamBytes();
    published = docId + 1;
    return docId;
  }

  private void invert(InvertedDocument doc, int docId) {
    List<InvertedField> fields = doc.fields();
    for (InvertedField f : fields) {
      LiveField field = fieldsByName.get(f.name());
      if (field == null) {
        field = createField(f.name(), f.kind(), docId, false);
      }
      if (field.norms != null) {
        field.norms.set(docId, f.norm());
      }
    }
    LiveField idField = fieldsByNumber[0];
    idTerms[docId] = idField.postings.add(doc.id(), docId, null, 1);
    for (InvertedField f : fields) {
      LiveTermPostings postings = fieldsByName.get(f.name()).postings;
      for (int i = 0; i < f.terms().length; i++) {
        int[] positions = f.positions()[i];
        postings.add(f.terms()[i], docId, positions, positions.length);
      }
    }
    for (int i = 1; i < indexedFields.size(); i++) {
      LiveField field = indexedFields.get(i);
      InvertedField f = find(fields, field.name);
      if (f == null) {
        field.recordStats(docId, 0, 0);
      } else {
        field.recordStats(docId, f.terms().length, f.length());
      }
    }
  }

  /** Undoes a failed add of {@code docId}: postings, norms, and fields created by it. */
  private void rollback(int docId, int fieldsBefore) {
    for (LiveField field : indexedFields) {
      field.postings.rollback();
    }
    for (int i = 0; i < fieldCount; i++) {
      LiveField field = fieldsByNumber[i];
      if (field.norms != null) {
        field.norms.clear(docId);
      }
    }
    while (fieldCount > fieldsBefore) {
      LiveField field = fieldsByNumber[--fieldCount];
      fieldsByNumber[fieldCount] = null;
      fieldsByName.remove(field.name);
      indexedFields.remove(field);
    }
  }

  private long computeRamBytes() {
    long bytes =
        pool.ramBytesUsed()
            + RamUsageEstimator.shallowSizeOf(stored)
            + RamUsageEstimator.sizeOf(idTerms)
            + storedBytes;
    for (int i = 0; i < fieldCount; i++) {
      bytes += fieldsByNumber[i].ramBytesUsed();
    }
    return bytes;
  }

  private static InvertedField find(List<InvertedField> fields, String name) {
    for (InvertedField f : fields) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  private LiveField createField(String name, FieldKind kind, int firstDoc, boolean idField) {
    LiveField field = new LiveField(name, kind, fieldCount, firstDoc, capacity, idField, pool);
    fieldsByNumber[fieldCount++] = field;
    fieldsByName.put(name, field);
    if (kind != FieldKind.STORED) {
      indexedFields.add(field);
    }
    return field;
  }

  /** The field named {@code name} if a snapshot of {@code maxDoc} docs can see it, else null. */
  LiveField field(String name, int maxDoc) {
    LiveField f = fieldsByName.get(name);
    return f != null && f.firstDoc < maxDoc ? f : null;
  }

  /** Field infos of the fields visible in a snapshot of {@code maxDoc} docs (cached). */
  FieldInfos fieldInfos(int maxDoc) {
    int count = 0;
    while (count < fieldsByNumber.length
        && fieldsByNumber[count] != null
        && fieldsByNumber[count].firstDoc < maxDoc) {
      count++;
    }
    FieldInfos infos = fieldInfosByCount.get(count);
    if (infos == null) {
      FieldInfo[] array = new FieldInfo[count];
      for (int i = 0; i < count; i++) {
        array[i] = fieldsByNumber[i].info;
      }
      infos = new FieldInfos(array);
      fieldInfosByCount.compareAndSet(count, null, infos);
    }
    return infos;
  }

  /** The stored fields of {@code doc} as {@link LogDocumentCodec} Document bytes: do not modify. */
  byte[] storedDocument(int doc) {
    return stored[doc];
  }

  /** The id of {@code doc} (a published doc), read from the id field's terms: do not modify. */
  BytesRef id(int doc) {
    return fieldsByNumber[0].terms.term(idTerms[doc]);
  }

  /** A reader over the currently published documents with the given deletions. */
  LiveLeafReader reader(DeletedDocs deletions) {
    // Read deletions before the fence: every deleted doc was published before it was deleted.
    int maxDoc = published;
    return new LiveLeafReader(this, maxDoc, deletions);
  }
}
