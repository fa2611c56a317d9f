package org.lucenenvm.realtime;

import java.util.List;
import org.apache.lucene.util.BytesRef;

/**
 * A validated, analyzed document ready to enter a live segment: nothing about it can make the live
 * segment refuse it.
 *
 * @param source the document as given (its values are what the engine stores)
 * @param id the id as a term
 * @param fields analyzed fields in the document's field order
 */
record InvertedDocument(RtDocument source, BytesRef id, List<InvertedField> fields) {}
