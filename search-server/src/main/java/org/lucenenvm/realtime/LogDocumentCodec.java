package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * The Document bytes of an {@link IngestLog} record of the engine: an {@link RtDocument}'s fields
 * (its id is the record's Id). The record's checksum covers these bytes. A live segment keeps the
 * stored part of each document in the same form ({@link #encode(RtDocument, Predicate)}), one
 * array per document, so that its documents are few, large objects for the garbage collector.
 *
 * <pre>
 * Document   --&gt; FieldCount, Field<sup>FieldCount</sup>
 * FieldCount --&gt; {@link org.apache.lucene.store.DataOutput#writeVInt VInt}
 * Field      --&gt; Name, Value, each a {@link org.apache.lucene.store.DataOutput#writeString String}
 *                (VInt length, UTF-8 bytes), in the document's field order
 * </pre>
 *
 * A delete record carries no Document bytes.
 */
final class LogDocumentCodec {
  private LogDocumentCodec() {}

  /** Receives a document's fields in order. */
  @FunctionalInterface
  interface FieldVisitor {
    /** Takes one field; returns true when it wants no more. */
    boolean field(String name, String value) throws IOException;
  }

  /** The Document bytes of all of {@code doc}'s fields. */
  static byte[] encode(RtDocument doc) {
    return encode(doc, name -> true);
  }

  /** The Document bytes of those fields of {@code doc} whose name {@code keep} accepts. */
  static byte[] encode(RtDocument doc, Predicate<String> keep) {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    try {
      int count = 0;
      for (String name : doc.fields().keySet()) {
        count += keep.test(name) ? 1 : 0;
      }
      out.writeVInt(count);
      for (Map.Entry<String, String> field : doc.fields().entrySet()) {
        if (keep.test(field.getKey())) {
          out.writeString(field.getKey());
          out.writeString(field.getValue());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in-memory output: cannot happen
    }
    return out.toArrayCopy();
  }

  /**
   * Offers the fields of {@code document} (Document bytes) to {@code visitor} in order until it
   * wants no more; returns the offset after the last field read.
   *
   * @throws IllegalArgumentException if the bytes end early or hold a negative count or length
   */
  static int visitFields(byte[] document, FieldVisitor visitor) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(document);
    int count = in.readVInt();
    if (count < 0) {
      throw new IllegalArgumentException("negative field count " + count);
    }
    for (; count > 0; count--) {
      if (visitor.field(readString(in, document), readString(in, document))) {
        break;
      }
    }
    return in.getPosition();
  }

  /** A String whose length is checked against the bytes left before anything is allocated. */
  private static String readString(ByteArrayDataInput in, byte[] document) {
    int length = in.readVInt();
    int at = in.getPosition();
    if (length < 0 || length > document.length - at) {
      throw new IllegalArgumentException(
          "string of " + length + " bytes at offset " + at + " of " + document.length);
    }
    in.skipBytes(length);
    return new String(document, at, length, StandardCharsets.UTF_8);
  }

  /**
   * Decodes the document of {@code record}.
   *
   * @throws CorruptIngestLogException if the bytes (whose checksum held) are not a document
   */
  static RtDocument decode(LogRecord record) throws CorruptIngestLogException {
    byte[] document = record.document();
    try {
      Map<String, String> fields = new LinkedHashMap<>();
      int end =
          visitFields(
              document,
              (name, value) -> {
                fields.put(name, value);
                return false;
              });
      if (end != document.length) {
        throw new IllegalArgumentException((document.length - end) + " trailing bytes");
      }
      return new RtDocument(record.id(), fields);
    } catch (IOException | RuntimeException e) {
      throw new CorruptIngestLogException(
          "ingest log record " + record.sequence() + " (" + record.operation() + " of id '" + record.id()
              + "') holds no valid document: " + e);
    }
  }
}
