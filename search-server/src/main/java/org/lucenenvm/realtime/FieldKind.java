package org.lucenenvm.realtime;

/**
 * How the engine indexes one field of an {@link RtDocument}. Every field value is also stored and
 * returned with search hits.
 *
 * <ul>
 *   <li>{@link #TEXT}: analyzed with the engine's analyzer; postings with docs, freqs and
 *       positions;
 *       norms computed by the engine's similarity (like {@code TextField}).
 *   <li>{@link #KEYWORD}: the whole value is one term; docs only, no norms (like {@code
 *       StringField}).
 *   <li>{@link #STORED}: stored only, not searchable (like {@code StoredField}).
 * </ul>
 */
public enum FieldKind {
  TEXT,
  KEYWORD,
  STORED
}
