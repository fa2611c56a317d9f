package org.lucenenvm.realtime;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The fields an engine accepts and how each is indexed. The {@value #ID_FIELD} field is implicit:
 * indexed as one term (docs only), stored, and kept as binary doc values. Every field is stored
 * (returned with hits) unless declared with {@link Builder#text(String, boolean) stored = false}.
 * Documents with a field the schema does not declare are refused.
 */
public final class RtSchema {
  /** Name of the implicit unique-id field. */
  public static final String ID_FIELD = "id";

  private final Map<String, FieldKind> kinds;
  private final Set<String> unstored;

  private RtSchema(Map<String, FieldKind> kinds, Set<String> unstored) {
    this.kinds = Collections.unmodifiableMap(new LinkedHashMap<>(kinds));
    this.unstored = Set.copyOf(unstored);
  }

  /** Whether values of {@code field} are stored and returned with hits. */
  public boolean isStored(String field) {
    return !unstored.contains(field);
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
    private final Set<String> unstored = new HashSet<>();

    private Builder() {}

    /** Declares an analyzed, stored text field. */
    public Builder text(String name) {
      return field(name, FieldKind.TEXT);
    }

    /**
     * Declares an analyzed text field that is stored (returned with hits) or not (searchable only,
     * like a {@code TextField} with {@code Field.Store.NO}).
     */
    public Builder text(String name, boolean stored) {
      field(name, FieldKind.TEXT);
      if (!stored) {
        unstored.add(name);
      }
      return this;
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
      return new RtSchema(kinds, unstored);
    }
  }
}
