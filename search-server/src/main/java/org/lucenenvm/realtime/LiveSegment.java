package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.util.BytesRef;

/**
 * The write-optimized in-DRAM segment that absorbs new documents (SPIRIT's ingested segment): per
 * field a term hash of growable {@link LivePostingList}s, dense norms and statistics, and the
 * stored documents, all pre-sized to {@code capacity} documents.
 *
 * <p>Exactly one thread calls {@link #add}; any number of threads read through {@link
 * #reader}. The published document count is the visibility fence: {@link #add} writes every slot
 * of a document, then stores {@code published = doc + 1} (volatile); a reader reads the count first
 * and sees documents {@code [0, published)} completely.
 */
final class LiveSegment {
  private static final long BYTES_PER_NEW_TERM = 160;
  private static final long BYTES_PER_DOC = 96;

  private final int capacity;
  /** Fields in creation order; a field's number is its index. Slots written before publishing. */
  private final LiveField[] fieldsByNumber;
  private final AtomicReferenceArray<FieldInfos> fieldInfosByCount;
  private final Map<String, LiveField> fieldsByName = new ConcurrentHashMap<>();
  private final RtDocument[] stored;
  private final BytesRef[] ids;

  private volatile int published;
  private volatile long ramBytes;
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
    this.stored = new RtDocument[capacity];
    this.ids = new BytesRef[capacity];
    long bytes = 2L * capacity * 8;
    createField(RtSchema.ID_FIELD, FieldKind.KEYWORD, 0, true);
    bytes += LiveField.preallocatedBytes(FieldKind.KEYWORD, capacity);
    ramBytes = bytes;
  }

  /** Documents visible to readers (the visibility fence). */
  int published() {
    return published;
  }

  boolean isFull() {
    return nextDoc == capacity;
  }

  /** Approximate DRAM this segment holds. */
  long ramBytesUsed() {
    return ramBytes;
  }

  /** Adds a document and publishes it; returns its doc id. Single writer only. */
  int add(InvertedDocument doc) {
    int docId = nextDoc;
    if (docId == capacity) {
      throw new IllegalStateException("live segment is full (" + capacity + " docs)");
    }
    long bytes = ramBytes + BYTES_PER_DOC;
    LiveField idField = fieldsByNumber[0];
    bytes += addTerm(idField, doc.id(), docId, null, 0);
    idField.recordStats(docId, true, 1, 1);
    List<InvertedField> fields = doc.fields();
    for (InvertedField f : fields) {
      LiveField field = fieldsByName.get(f.name());
      if (field == null) {
        field = createField(f.name(), f.kind(), docId, false);
        bytes += LiveField.preallocatedBytes(f.kind(), capacity);
      }
      for (int i = 0; i < f.terms().length; i++) {
        int[] positions = f.positions()[i];
        bytes += addTerm(field, f.terms()[i], docId, positions, positions.length);
      }
      if (field.norms != null) {
        field.norms[docId] = f.norm();
        field.docsWithNorms.set(docId);
      }
    }
    for (int i = 1; i < indexedFields.size(); i++) {
      LiveField field = indexedFields.get(i);
      InvertedField f = find(fields, field.name);
      if (f == null) {
        field.recordStats(docId, false, 0, 0);
      } else {
        field.recordStats(docId, f.terms().length > 0, f.terms().length, f.length());
      }
    }
    for (Map.Entry<String, String> e : doc.source().fields().entrySet()) {
      bytes += 2L * e.getValue().length() + 48;
    }
    stored[docId] = doc.source();
    ids[docId] = doc.id();
    nextDoc = docId + 1;
    ramBytes = bytes;
    published = docId + 1;
    return docId;
  }

  private static InvertedField find(List<InvertedField> fields, String name) {
    for (InvertedField f : fields) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  private long addTerm(LiveField field, BytesRef term, int docId, int[] positions, int count) {
    long bytes = 0;
    LivePostingList postings = field.terms.get(term);
    if (postings == null) {
      postings = new LivePostingList(field.hasPositions());
      field.terms.put(term, postings);
      bytes += BYTES_PER_NEW_TERM + term.length;
    }
    return bytes + postings.add(docId, positions, count);
  }

  private LiveField createField(String name, FieldKind kind, int firstDoc, boolean idField) {
    LiveField field = new LiveField(name, kind, fieldCount, firstDoc, capacity, idField);
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

  RtDocument storedDocument(int doc) {
    return stored[doc];
  }

  BytesRef id(int doc) {
    return ids[doc];
  }

  /** A reader over the currently published documents with the given deletions. */
  LiveLeafReader reader(DeletedDocs deletions) {
    // Read deletions before the fence: every deleted doc was published before it was deleted.
    int maxDoc = published;
    return new LiveLeafReader(this, maxDoc, deletions);
  }
}
