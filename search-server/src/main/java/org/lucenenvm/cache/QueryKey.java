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
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;

/**
 * A normalized cache key (Kilrain-Mottram): an operator and the query's (field, term) pairs sorted
 * (by field, then term in unsigned byte order; duplicates kept), so {@code a AND b} and {@code b
 * AND a} are one key (the isomorphic match), and so are {@code title:a body:a} and {@code body:a
 * title:a}. Built from a parsed query by {@link QueryKeys#of}.
 *
 * <p>Binary form ({@link #toBytes()}), the thesis's key with a field per term:
 *
 * <pre>
 * Key      --&gt; Operator, TermCount, (FieldLength, Field, TermLength, Term)&lt;sup&gt;TermCount&lt;/sup&gt;
 * Operator --&gt; byte: '0' single term, '^' conjunction, '|' disjunction
 * TermCount, FieldLength, TermLength --&gt; int32 (big endian)
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
  private final List<Term> terms;
  private final int hash;

  /**
   * A key; validates, deep-copies and sorts the terms.
   *
   * @param operator how the terms combine
   * @param terms the terms, each with its field, in any order; exactly one for {@link
   *     Operator#SINGLE}, at least two otherwise
   */
  public QueryKey(Operator operator, List<Term> terms) {
    if (operator == null) {
      throw new IllegalArgumentException("query key needs an operator");
    }
    List<Term> sorted = new ArrayList<>(terms.size());
    for (Term term : terms) {
      sorted.add(new Term(term.field(), BytesRef.deepCopyOf(term.bytes())));
    }
    sorted.sort(null);
    if (operator == Operator.SINGLE ? sorted.size() != 1 : sorted.size() < 2) {
      throw new IllegalArgumentException(operator + " key cannot have " + sorted.size() + " terms");
    }
    this.operator = operator;
    this.terms = List.copyOf(sorted);
    this.hash = Objects.hash(operator, this.terms);
  }

  /** How the terms combine. */
  public Operator operator() {
    return operator;
  }

  /** The terms with their fields, sorted (by field, then term; duplicates kept). */
  public List<Term> terms() {
    return terms;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryKey other
        && hash == other.hash
        && operator == other.operator
        && terms.equals(other.terms);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  /** The single-term key of term {@code index} of this key. */
  public QueryKey termKey(int index) {
    return new QueryKey(Operator.SINGLE, List.of(terms.get(index)));
  }

  /**
   * Partial Type I: the index of {@code single}'s term among this disjunction's terms if an entry
   * under this key that keeps per-term parts can answer {@code single} exactly; empty otherwise
   * (this key is not a disjunction, {@code single} is not a single-term key, or its term, in its
   * field, is absent). A conjunction never answers a single term: its results are a subset.
   */
  public Optional<Integer> termPartFor(QueryKey single) {
    if (operator != Operator.OR || single.operator != Operator.SINGLE) {
      return Optional.empty();
    }
    int index = terms.indexOf(single.terms.getFirst());
    return index < 0 ? Optional.empty() : Optional.of(index);
  }

  /** The length of {@link #toBytes()}, worked out without building it. */
  public int encodedLength() {
    int length = 1 + 4;
    for (Term term : terms) {
      length += 4 + term.field().getBytes(StandardCharsets.UTF_8).length + 4 + term.bytes().length;
    }
    return length;
  }

  /** The key's binary form (see the class javadoc). */
  public byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(operator.code);
      out.writeInt(terms.size());
      for (Term term : terms) {
        byte[] field = term.field().getBytes(StandardCharsets.UTF_8);
        out.writeInt(field.length);
        out.write(field);
        BytesRef text = term.bytes();
        out.writeInt(text.length);
        out.write(text.bytes, text.offset, text.length);
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
      int count = in.readInt();
      if (count < 0 || count > bytes.length) {
        throw new IllegalArgumentException("query key has invalid term count " + count);
      }
      List<Term> terms = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        String field = new String(readBytes(in, bytes.length), StandardCharsets.UTF_8);
        terms.add(new Term(field, new BytesRef(readBytes(in, bytes.length))));
      }
      if (in.available() != 0) {
        throw new IllegalArgumentException("query key has " + in.available() + " trailing bytes");
      }
      return new QueryKey(operator, terms);
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
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < terms.size(); i++) {
      if (i > 0) {
        text.append((char) operator.code);
      }
      text.append(terms.get(i));
    }
    return text.toString();
  }
}
