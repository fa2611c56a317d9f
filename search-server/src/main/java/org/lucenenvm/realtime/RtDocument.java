package org.lucenenvm.realtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A document for the real-time engine: a required unique {@code id} and single-valued string
 * fields whose kinds the engine's {@link RtSchema} declares. The field map keeps insertion order.
 * Validation against the schema happens in the engine, before a document is acknowledged.
 */
public final class RtDocument {
  private final String id;
  private final Map<String, String> fields;

  /** Creates a document; {@code fields} is copied. */
  public RtDocument(String id, Map<String, String> fields) {
    this.id = id;
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(fields)));
  }

  /**
   * Creates a document from loosely typed values (e.g. parsed JSON), refusing any value that is not
   * a string with an exception naming the field.
   */
  public static RtDocument fromObjects(String id, Map<String, ?> values) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : values.entrySet()) {
      Object v = e.getValue();
      if (!(v instanceof String s)) {
        throw new IllegalArgumentException(
            "field '"
                + e.getKey()
                + "' must have a string value, got "
                + (v == null ? "null" : v.getClass().getSimpleName()));
      }
      fields.put(e.getKey(), s);
    }
    return new RtDocument(id, fields);
  }

  /** The document's unique id. */
  public String id() {
    return id;
  }

  /** Field name to value, in insertion order; never contains the id field. */
  public Map<String, String> fields() {
    return fields;
  }

  @Override
  public String toString() {
    return "RtDocument{id=" + id + ", fields=" + fields.keySet() + "}";
  }
}
