package org.lucenenvm.server;

import java.util.Collections;
import java.util.Map;
import java.util.regex.Pattern;
import org.lucenenvm.realtime.RtSchema;

/**
 * What an index is: its name, its schema and its number of partitions. Stored next to the index's
 * pool as {@code <name>.index.json}: {@code {"name": "docs", "fields": {"title": "text"},
 * "partitions": 2}}.
 *
 * @param name index name: 1 to 64 characters of {@code [a-z0-9_-]}, starting with a letter or digit
 * @param fields field name to type (see {@link Schemas})
 * @param partitions number of executors (document partitions)
 */
public record IndexDefinition(String name, Map<String, String> fields, int partitions) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  /** Validates the name, schema and partition count. */
  public IndexDefinition {
    checkName(name);
    fields = Collections.unmodifiableMap(Schemas.toMap(Schemas.fromMap(fields)));
    if (partitions < 1 || partitions > 64) {
      throw new IllegalArgumentException("partitions must be in 1..64, got " + partitions);
    }
  }

  /** Refuses a name that is not a valid index name. */
  public static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "invalid index name '" + name + "': use 1-64 characters of a-z, 0-9, '_' and '-'");
    }
  }

  /** The engine schema. */
  public RtSchema schema() {
    return Schemas.fromMap(fields);
  }
}
