package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Normalizes a parsed Lucene query into a {@link QueryKey}, or says it cannot be cached. Keyable: a
 * {@link TermQuery}; a {@link BooleanQuery} of at least two term queries on one field, all {@code
 * MUST} (conjunction) or all {@code SHOULD} with no minimum-should-match (disjunction). Everything
 * else bypasses the cache: multi-term expansions (wildcard, prefix, regexp, fuzzy, ranges),
 * phrases, boosts, filters, negations, mixed operators, nested booleans, several fields. Only
 * shapes whose scores do not depend on clause order are keyed, so a key's results are exact for
 * every query that maps to it.
 */
public final class QueryKeys {
  private QueryKeys() {}

  /** The normalized key of {@code query}, or empty if the cache cannot key it. */
  public static Optional<QueryKey> of(Query query) {
    if (query instanceof TermQuery term) {
      return Optional.of(
          new QueryKey(
              QueryKey.Operator.SINGLE, term.getTerm().field(), List.of(term.getTerm().bytes())));
    }
    if (query instanceof BooleanQuery bool) {
      return ofBoolean(bool);
    }
    return Optional.empty();
  }

  /**
   * The canonical query of {@code key}: a {@link TermQuery}, or a {@link BooleanQuery} of its terms
   * in key order. Every query with this key has the same matches; running this one gives every
   * such query the very same scores, whatever its clause order.
   */
  public static Query toQuery(QueryKey key) {
    return toQuery(key, TermQuery::new);
  }

  /**
   * {@link #toQuery(QueryKey)} with each term's query made by {@code termQuery} (for instance a
   * {@link TermQuery} with given {@link org.apache.lucene.index.TermStates}): the same shape, so
   * the same matches and scores as long as {@code termQuery} scores a term as {@link TermQuery}
   * does.
   */
  public static <E extends Exception> Query toQuery(QueryKey key, TermQueryMaker<E> termQuery)
      throws E {
    if (key.operator() == QueryKey.Operator.SINGLE) {
      return termQuery.of(new Term(key.field(), key.terms().getFirst()));
    }
    BooleanClause.Occur occur =
        key.operator() == QueryKey.Operator.AND
            ? BooleanClause.Occur.MUST
            : BooleanClause.Occur.SHOULD;
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (BytesRef term : key.terms()) {
      builder.add(termQuery.of(new Term(key.field(), term)), occur);
    }
    return builder.build();
  }

  /** Makes the query of one term of a key (see {@link #toQuery(QueryKey, TermQueryMaker)}). */
  @FunctionalInterface
  public interface TermQueryMaker<E extends Exception> {
    /** The query of {@code term}. */
    TermQuery of(Term term) throws E;
  }

  private static Optional<QueryKey> ofBoolean(BooleanQuery bool) {
    List<BooleanClause> clauses = bool.clauses();
    if (clauses.size() < 2 || bool.getMinimumNumberShouldMatch() != 0) {
      return Optional.empty();
    }
    BooleanClause.Occur occur = clauses.getFirst().occur();
    QueryKey.Operator operator;
    if (occur == BooleanClause.Occur.MUST) {
      operator = QueryKey.Operator.AND;
    } else if (occur == BooleanClause.Occur.SHOULD) {
      operator = QueryKey.Operator.OR;
    } else {
      return Optional.empty();
    }
    String field = null;
    List<BytesRef> terms = new ArrayList<>(clauses.size());
    for (BooleanClause clause : clauses) {
      if (clause.occur() != occur || !(clause.query() instanceof TermQuery term)) {
        return Optional.empty();
      }
      if (field == null) {
        field = term.getTerm().field();
      } else if (!field.equals(term.getTerm().field())) {
        return Optional.empty();
      }
      terms.add(term.getTerm().bytes());
    }
    return Optional.of(new QueryKey(operator, field, terms));
  }
}
