package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.index.FieldInvertState;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;

/**
 * Validates an {@link RtDocument} against the schema and analyzes it, the way Lucene's indexing
 * chain would: same positions, same overlap counting, same {@link Similarity#computeNorm} input.
 * Thread-safe (the analyzer reuses token streams per thread), so callers may invert in parallel
 * before taking the engine's write lock. Every refusal is an {@link IllegalArgumentException} that
 * names the document and the field.
 */
final class DocumentInverter {
  private final RtSchema schema;
  private final Analyzer analyzer;
  private final Similarity similarity;

  DocumentInverter(RtSchema schema, Analyzer analyzer, Similarity similarity) {
    this.schema = schema;
    this.analyzer = analyzer;
    this.similarity = similarity;
  }

  /** Validates {@code doc} and inverts it; throws {@link IllegalArgumentException} if refused. */
  InvertedDocument invert(RtDocument doc) {
    if (doc == null) {
      throw new IllegalArgumentException("document must not be null");
    }
    BytesRef id = validId(doc.id());
    List<InvertedField> fields = new ArrayList<>(doc.fields().size());
    for (Map.Entry<String, String> e : doc.fields().entrySet()) {
      String name = e.getKey();
      FieldKind kind = schema.kindOf(name);
      if (kind == null) {
        throw new IllegalArgumentException(
            "document '" + doc.id() + "': field '" + name + "' is not declared in the schema");
      }
      String value = e.getValue();
      if (value == null) {
        throw new IllegalArgumentException(
            "document '" + doc.id() + "': field '" + name + "' has a null value");
      }
      fields.add(
          switch (kind) {
            case TEXT -> invertText(doc.id(), name, value);
            case KEYWORD -> invertKeyword(doc.id(), name, value);
            case STORED -> new InvertedField(name, kind, new BytesRef[0], new int[0][], 0, 0);
          });
    }
    boolean storesEverything = true;
    for (String name : doc.fields().keySet()) {
      storesEverything &= schema.isStored(name);
    }
    byte[] stored = LogDocumentCodec.encode(doc, schema::isStored);
    return new InvertedDocument(doc, stored, storesEverything, id, fields);
  }

  private static BytesRef validId(String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("document has no '" + RtSchema.ID_FIELD + "'");
    }
    BytesRef term = new BytesRef(id);
    checkTermLength(id, RtSchema.ID_FIELD, term);
    return term;
  }

  private static void checkTermLength(String docId, String field, BytesRef term) {
    if (term.length > IndexWriter.MAX_TERM_LENGTH) {
      String prefix = term.utf8ToString();
      throw new IllegalArgumentException(
          "document '"
              + (docId.length() > 40 ? docId.substring(0, 40) + "..." : docId)
              + "': field '"
              + field
              + "' has a term of "
              + term.length
              + " UTF-8 bytes, longer than the maximum "
              + IndexWriter.MAX_TERM_LENGTH
              + " (term starts with '"
              + prefix.substring(0, Math.min(30, prefix.length()))
              + "')");
    }
  }

  private static InvertedField invertKeyword(String docId, String name, String value) {
    BytesRef term = new BytesRef(value);
    checkTermLength(docId, name, term);
    return new InvertedField(
        name, FieldKind.KEYWORD, new BytesRef[] {term}, new int[][] {{0}}, 1, 0);
  }

  private InvertedField invertText(String docId, String name, String value) {
    FieldTermCollector occurrences = new FieldTermCollector(value.length() / 6 + 1);
    int position = -1;
    int lastPosition = 0;
    int length = 0;
    int numOverlap = 0;
    int maxTermFrequency = 0;
    int offset = 0;
    try (TokenStream stream = analyzer.tokenStream(name, value)) {
      TermToBytesRefAttribute termAtt = stream.getAttribute(TermToBytesRefAttribute.class);
      PositionIncrementAttribute posIncAtt = stream.addAttribute(PositionIncrementAttribute.class);
      OffsetAttribute offsetAtt = stream.addAttribute(OffsetAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        int posInc = posIncAtt.getPositionIncrement();
        position += posInc;
        if (position < lastPosition || position > IndexWriter.MAX_POSITION) {
          throw new IllegalArgumentException(
              "document '" + docId + "': field '" + name + "' has invalid position " + position);
        }
        lastPosition = position;
        if (posInc == 0) {
          numOverlap++;
        }
        length = Math.addExact(length, 1);
        BytesRef term = termAtt.getBytesRef();
        checkTermLength(docId, name, term);
        maxTermFrequency = Math.max(maxTermFrequency, occurrences.add(term, position));
      }
      stream.end();
      position += posIncAtt.getPositionIncrement();
      offset = offsetAtt.endOffset();
    } catch (IOException ioe) {
      throw new UncheckedIOException("analysis of field '" + name + "' failed", ioe);
    }
    BytesRef[] terms = occurrences.terms();
    long norm = 0;
    if (length > 0) {
      FieldInvertState state =
          new FieldInvertState(
              Version.LATEST.major,
              name,
              IndexOptions.DOCS_AND_FREQS_AND_POSITIONS,
              position,
              length,
              numOverlap,
              offset,
              maxTermFrequency,
              terms.length);
      norm = similarity.computeNorm(state);
      if (norm == 0) {
        throw new IllegalStateException(
            similarity.getClass() + " computed a 0 norm for the non-empty field '" + name + "'");
      }
    }
    return new InvertedField(
        name, FieldKind.TEXT, terms, occurrences.positions(), length, norm);
  }
}
