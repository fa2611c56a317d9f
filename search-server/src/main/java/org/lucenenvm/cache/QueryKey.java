package org.lucenenvm.cache;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.lucene.util.BytesRef;

/**
 * A normalized cache key (Kilrain-Mottram): an operator, one field and the query's terms sorted
 * (unsigned byte order, duplicates kept), so {@code a AND b} and {@code b AND a} are one key (the
 * isomorphic match). Built from a parsed query by {@link QueryKeys#of}.
 *
 * <p>Binary form ({@link #toBytes()}), packed like the thesis's key but for any number of terms:
 *
 * <pre>
 * Key      --&gt; Operator, FieldLength, Field, TermCount, (TermLength, Term)&lt;sup&gt;TermCount&lt;/sup&gt;
 * Operator --&gt; byte: '0' single term, '^' conjunction, '|' disjunction
 * FieldLength, TermCount, TermLength --&gt; int32 (big endian)
 * Field    --&gt; UTF-8 bytes; Term --&gt; the indexed term's bytes
 * </pre>
 *
 * <p>Immutable; its hash code is computed once, as every cached search looks its key up in
 * several maps.
 */
public final class QueryKey {
  /** How a key's terms combine. */
  public enum Operator {
    /** One term query. */
    SINGLE('0'),
    /** All terms required (a conjunction of MUST clauses). */
    AND('^'),
    /** Any term (a disjunction of SHOULD clauses, no minimum-should-match). */
    OR('|');

    private final byte code;

    Operator(char code) {
      this.code = (byte) code;
    }

    static Operator of(byte code) {
      for (Operator operator : values()) {
        if (operator.code == code) {
          return operator;
        }
      }
      throw new IllegalArgumentException("unknown query key operator code " + code);
    }
  }

  private final Operator operator;
  private final String field;
  private final List<BytesRef> terms;
  private final int hash;

  /**
   * A key; validates, deep-copies and sorts the terms.
   *
   * @param operator how the terms combine
   * @param field the field every term is in
   * @param terms the terms, in any order; exactly one for {@link Operator#SINGLE}, at least two
   *     otherwise
   */
  public QueryKey(Operator operator, String field, List<BytesRef> terms) {
    if (field == null || operator == null) {
      throw new IllegalArgumentException("query key needs an operator and a field");
    }
    List<BytesRef> sorted = new ArrayList<>(terms.size());
    for (BytesRef term : terms) {
      sorted.add(BytesRef.deepCopyOf(term));
    }
    sorted.sort(null);
    if (operator == Operator.SINGLE ? sorted.size() != 1 : sorted.size() < 2) {
      throw new IllegalArgumentException(operator + " key cannot have " + sorted.size() + " terms");
    }
    this.operator = operator;
    this.field = field;
    this.terms = List.copyOf(sorted);
    this.hash = Objects.hash(operator, field, this.terms);
  }

  /** How the terms combine. */
  public Operator operator() {
    return operator;
  }

  /** The field every term is in. */
  public String field() {
    return field;
  }

  /** The terms, sorted (unsigned byte order, duplicates kept). */
  public List<BytesRef> terms() {
    return terms;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryKey other
        && hash == other.hash
        && operator == other.operator
        && field.equals(other.field)
        && terms.equals(other.terms);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  /** The single-term key of term {@code index} of this key. */
  public QueryKey termKey(int index) {
    return new QueryKey(Operator.SINGLE, field, List.of(terms.get(index)));
  }

  /**
   * Partial Type I: the index of {@code single}'s term among this disjunction's terms if an entry
   * under this key that keeps per-term parts can answer {@code single} exactly; empty otherwise
   * (this key is not a disjunction, {@code single} is not a single-term key of the same field, or
   * the term is absent). A conjunction never answers a single term: its results are a subset.
   */
  public Optional<Integer> termPartFor(QueryKey single) {
    if (operator != Operator.OR
        || single.operator != Operator.SINGLE
        || !field.equals(single.field)) {
      return Optional.empty();
    }
    int index = terms.indexOf(single.terms.getFirst());
    return index < 0 ? Optional.empty() : Optional.of(index);
  }

  /** The length of {@link #toBytes()}, worked out without building it. */
  public int encodedLength() {
    int length = 1 + 4 + field.getBytes(StandardCharsets.UTF_8).length + 4;
    for (BytesRef term : terms) {
      length += 4 + term.length;
    }
    return length;
  }

  /** The key's binary form (see the class javadoc). */
  public byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(operator.code);
      byte[] fieldBytes = field.getBytes(StandardCharsets.UTF_8);
      out.writeInt(fieldBytes.length);
      out.write(fieldBytes);
      out.writeInt(terms.size());
      for (BytesRef term : terms) {
        out.writeInt(term.length);
        out.write(term.bytes, term.offset, term.length);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Parses a key's binary form; throws {@link IllegalArgumentException} if it is malformed. */
  public static QueryKey fromBytes(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      Operator operator = Operator.of(in.readByte());
      String field = new String(readBytes(in, bytes.length), StandardCharsets.UTF_8);
      int count = in.readInt();
      if (count < 0 || count > bytes.length) {
        throw new IllegalArgumentException("query key has invalid term count " + count);
      }
      List<BytesRef> terms = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        terms.add(new BytesRef(readBytes(in, bytes.length)));
      }
      if (in.available() != 0) {
        throw new IllegalArgumentException("query key has " + in.available() + " trailing bytes");
      }
      return new QueryKey(operator, field, terms);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated query key", e);
    }
  }

  private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > limit) {
      throw new IllegalArgumentException("query key has invalid length " + length);
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length != length) {
      throw new IllegalArgumentException("truncated query key");
    }
    return bytes;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(field).append(':');
    for (int i = 0; i < terms.size(); i++) {
      if (i > 0) {
        text.append((char) operator.code);
      }
      text.append(terms.get(i).utf8ToString());
    }
    return text.toString();
  }
}
