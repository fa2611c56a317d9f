package org.lucenenvm.server;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.lucenenvm.realtime.FieldKind;
import org.lucenenvm.realtime.RtSchema;

/**
 * Converts schemas to and from their external forms: a field-name to type map (JSON: {@code
 * {"title": "text", "lang": "keyword"}}) and a compact string ({@code title:text,lang:keyword}, used
 * on the command line and in the config file). Types are {@code text}, {@code keyword} and {@code
 * stored}, case-insensitive.
 */
public final class Schemas {
  private Schemas() {}

  /** Builds a schema from a field-name to type map, refusing unknown types with a clear message. */
  public static RtSchema fromMap(Map<String, String> fields) {
    if (fields == null || fields.isEmpty()) {
      throw new IllegalArgumentException("schema must declare at least one field");
    }
    RtSchema.Builder b = RtSchema.builder();
    for (Map.Entry<String, String> e : fields.entrySet()) {
      b.field(e.getKey(), kind(e.getKey(), e.getValue()));
    }
    return b.build();
  }

  /** Parses {@code name:type[,name:type...]}. */
  public static RtSchema parse(String spec) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : spec.split(",")) {
      String trimmed = part.trim();
      int colon = trimmed.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(
            "schema entry '" + trimmed + "' is not name:type (e.g. title:text,lang:keyword)");
      }
      if (fields.put(trimmed.substring(0, colon), trimmed.substring(colon + 1)) != null) {
        throw new IllegalArgumentException("field '" + trimmed.substring(0, colon) + "' declared twice");
      }
    }
    return fromMap(fields);
  }

  /** The field-name to type map of {@code schema} (lower-case types, declaration order). */
  public static Map<String, String> toMap(RtSchema schema) {
    Map<String, String> fields = new LinkedHashMap<>();
    schema.fields().forEach((name, kind) -> fields.put(name, kind.name().toLowerCase(Locale.ROOT)));
    return fields;
  }

  private static FieldKind kind(String field, String type) {
    if (type != null) {
      for (FieldKind k : FieldKind.values()) {
        if (k.name().equalsIgnoreCase(type.trim())) {
          return k;
        }
      }
    }
    throw new IllegalArgumentException(
        "field '"
            + field
            + "' has unknown type '"
            + type
            + "'; known types: "
            + Arrays.toString(FieldKind.values()).toLowerCase(Locale.ROOT));
  }
}
