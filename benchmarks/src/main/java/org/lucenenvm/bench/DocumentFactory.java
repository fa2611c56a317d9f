package org.lucenenvm.bench;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;

/**
 * Turns line-doc records into Lucene documents the way luceneutil indexes them: {@code title}
 * (analyzed, stored), {@code date} (one stored keyword) and {@code body} (analyzed with positions,
 * not stored). One instance reuses its fields and is therefore confined to one thread.
 */
public final class DocumentFactory {

  /** Title field name. */
  public static final String TITLE = "title";
  /** Date field name. */
  public static final String DATE = "date";
  /** Body field name, the one tasks search by default. */
  public static final String BODY = CorpusGenerator.BODY_FIELD;

  private final Field title = new TextField(TITLE, "", Field.Store.YES);
  private final Field date = new StringField(DATE, "", Field.Store.YES);
  private final Field body = new TextField(BODY, "", Field.Store.NO);
  private final Document document = new Document();

  /** A factory with its reusable document. */
  public DocumentFactory() {
    document.add(title);
    document.add(date);
    document.add(body);
  }

  /** The reusable document filled with {@code doc}; valid until the next call. */
  public Document toDocument(LineDoc doc) {
    title.setStringValue(doc.title());
    date.setStringValue(doc.date());
    body.setStringValue(doc.body());
    return document;
  }
}
