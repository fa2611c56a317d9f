package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * The Document bytes of an {@link IngestLog} record of the engine: an {@link RtDocument}'s fields
 * (its id is the record's Id). The record's checksum covers these bytes.
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

  static byte[] encode(RtDocument doc) {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    try {
      out.writeVInt(doc.fields().size());
      for (Map.Entry<String, String> field : doc.fields().entrySet()) {
        out.writeString(field.getKey());
        out.writeString(field.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in-memory output: cannot happen
    }
    return out.toArrayCopy();
  }

  /**
   * Decodes the document of {@code record}.
   *
   * @throws CorruptIngestLogException if the bytes (whose checksum held) are not a document
   */
  static RtDocument decode(LogRecord record) throws CorruptIngestLogException {
    ByteArrayDataInput in = new ByteArrayDataInput(record.document());
    try {
      int count = in.readVInt();
      Map<String, String> fields = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        fields.put(in.readString(), in.readString());
      }
      if (!in.eof()) {
        throw new IllegalArgumentException((record.document().length - in.getPosition()) + " trailing bytes");
      }
      return new RtDocument(record.id(), fields);
    } catch (IOException | RuntimeException e) {
      throw new CorruptIngestLogException(
          "ingest log record " + record.sequence() + " (" + record.operation() + " of id '" + record.id()
              + "') holds no valid document: " + e);
    }
  }
}
