package org.lucenenvm.realtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields an engine accepts and how each is indexed. The {@value #ID_FIELD} field is implicit:
 * indexed as one term (docs only), stored, and kept as binary doc values. Documents with a field
 * the schema does not declare are refused.
 */
public final class RtSchema {
  /** Name of the implicit unique-id field. */
  public static final String ID_FIELD = "id";

  private final Map<String, FieldKind> kinds;

  private RtSchema(Map<String, FieldKind> kinds) {
    this.kinds = Collections.unmodifiableMap(new LinkedHashMap<>(kinds));
  }

  /** Starts an empty schema. */
  public static Builder builder() {
    return new Builder();
  }

  /** The declared kind of {@code field}, or null when the schema does not declare it. */
  public FieldKind kindOf(String field) {
    return kinds.get(field);
  }

  /** All declared fields (without the id field) in declaration order. */
  public Map<String, FieldKind> fields() {
    return kinds;
  }

  /** Builds an {@link RtSchema}. */
  public static final class Builder {
    private final Map<String, FieldKind> kinds = new LinkedHashMap<>();

    private Builder() {}

    /** Declares an analyzed text field. */
    public Builder text(String name) {
      return field(name, FieldKind.TEXT);
    }

    /** Declares a single-term keyword field. */
    public Builder keyword(String name) {
      return field(name, FieldKind.KEYWORD);
    }

    /** Declares a stored-only field. */
    public Builder stored(String name) {
      return field(name, FieldKind.STORED);
    }

    /** Declares {@code name} with {@code kind}; a name may be declared once. */
    public Builder field(String name, FieldKind kind) {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("field name must be non-empty");
      }
      if (ID_FIELD.equals(name)) {
        throw new IllegalArgumentException("'" + ID_FIELD + "' is the implicit id field");
      }
      if (kinds.putIfAbsent(name, kind) != null) {
        throw new IllegalArgumentException("field '" + name + "' declared twice");
      }
      return this;
    }

    /** The finished schema. */
    public RtSchema build() {
      return new RtSchema(kinds);
    }
  }
}
