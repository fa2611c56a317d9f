package org.lucenenvm.realtime;

import java.util.List;
import org.apache.lucene.util.BytesRef;

/**
 * A validated, analyzed document ready to enter a live segment: nothing about it can make the live
 * segment refuse it.
 *
 * @param document the document as given, every field included (what the ingest log records)
 * @param stored the values the engine stores, as {@link LogDocumentCodec} Document bytes: those of
 *     {@code document} without its unstored fields
 * @param storesEverything whether {@code stored} holds every field of {@code document}
 * @param id the id as a term
 * @param fields analyzed fields in the document's field order
 */
record InvertedDocument(
    RtDocument document,
    byte[] stored,
    boolean storesEverything,
    BytesRef id,
    List<InvertedField> fields) {

  /** The Document bytes of an ingest log record: the whole document. */
  byte[] logged() {
    return storesEverything ? stored : LogDocumentCodec.encode(document);
  }
}
