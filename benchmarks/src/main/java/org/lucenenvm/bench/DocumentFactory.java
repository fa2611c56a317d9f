package org.lucenenvm.bench;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.util.BytesRef;

/**
 * Turns line-doc records into Lucene documents the way luceneutil indexes them: {@code title}
 * (analyzed, stored), {@code date} (one stored keyword) and {@code body} (analyzed with positions,
 * not stored). {@link #withIds()} also gives every document the id the real-time engine gives it
 * (its number in ingest order, from 0) the way the engine indexes it: indexed as one keyword,
 * stored, and as binary doc values, so NRT and the engine index and store the same. One instance
 * reuses its fields and is therefore confined to one thread.
 */
public final class DocumentFactory {
  /** The id field name, the engine's implicit id field. */
  public static final String ID = "id";

  /** Title field name. */
  public static final String TITLE = "title";
  /** Date field name. */
  public static final String DATE = "date";
  /** Body field name, the one tasks search by default. */
  public static final String BODY = CorpusGenerator.BODY_FIELD;

  private final Field title = new TextField(TITLE, "", Field.Store.YES);
  private final Field date = new StringField(DATE, "", Field.Store.YES);
  private final Field body = new TextField(BODY, "", Field.Store.NO);
  private final Field id;
  private final Field idValue;
  private final Document document = new Document();
  private long nextId;

  private DocumentFactory(boolean withIds) {
    if (withIds) {
      id = new StringField(ID, "", Field.Store.YES);
      idValue = new BinaryDocValuesField(ID, new BytesRef());
      document.add(id);
      document.add(idValue);
    } else {
      id = null;
      idValue = null;
    }
    document.add(title);
    document.add(date);
    document.add(body);
  }

  /** A factory of documents without an id field (the static benchmarks). */
  public DocumentFactory() {
    this(false);
  }

  /** A factory of documents with the engine's id field, numbered from 0 in call order. */
  public static DocumentFactory withIds() {
    return new DocumentFactory(true);
  }

  /** The reusable document filled with {@code doc}; valid until the next call. */
  public Document toDocument(LineDoc doc) {
    if (id != null) {
      String value = Long.toString(nextId++);
      id.setStringValue(value);
      idValue.setBytesValue(new BytesRef(value));
    }
    title.setStringValue(doc.title());
    date.setStringValue(doc.date());
    body.setStringValue(doc.body());
    return document;
  }
}
