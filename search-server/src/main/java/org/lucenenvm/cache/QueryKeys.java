package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Normalizes a parsed Lucene query into a {@link QueryKey}, or says it cannot be cached.
 *
 * <p>The query is first flattened as Lucene's own rewrite ({@link BooleanQuery#rewrite}) flattens
 * it, so that the shapes a query parser produces for the same words share one key: a {@link
 * BooleanQuery} of one {@code SHOULD} or {@code MUST} clause stands for that clause (the classic
 * {@code MultiFieldQueryParser} wraps each word so, once per default field), a {@code SHOULD}
 * clause that is itself a disjunction has its clauses inlined, and a {@code MUST} clause that is
 * itself a conjunction too. Keyable is what this leaves as a {@link TermQuery}, or a {@link
 * BooleanQuery} of at least two term queries, on one field or several, all {@code MUST}
 * (conjunction) or all {@code SHOULD} (disjunction): {@code a}, {@code a b}, {@code a OR b},
 * {@code (a b) c}, {@code title:a body:b}, fielded or not, and, over one default field, {@code a
 * AND b}, {@code +a +b}, {@code +a +(+b +c)}. Over several default fields the parser makes a word
 * a disjunction of its fields, so a plain word and {@code a b} key as disjunctions of (field,
 * term) pairs, while {@code a AND b} is a conjunction of such disjunctions (mixed operators) and
 * bypasses. A boolean query with a minimum-should-match is never flattened nor keyed, nor is a
 * query that repeats a (field, term) pair: Lucene merges equal clauses where they stand before it
 * flattens, so that {@code (+a +b) (+a +b)} and {@code +a +a +b +b} score differently in the last
 * bit. Everything else bypasses the cache: multi-term expansions (wildcard, prefix, regexp, fuzzy,
 * ranges), phrases, boosts, filters, negations, mixed operators (a conjunction inside a
 * disjunction or the reverse). Only shapes whose scores do not depend on clause order or nesting
 * are keyed: Lucene rewrites every query with a given key to the same flat query as {@link
 * #toQuery(QueryKey)} but for the order of its clauses, so a key's results are exact for every
 * query that maps to it; each term query scores with its own field's statistics, whichever fields
 * its neighbours are in.
 */
public final class QueryKeys {
  private QueryKeys() {}

  /** The normalized key of {@code query}, or empty if the cache cannot key it. */
  public static Optional<QueryKey> of(Query query) {
    QueryKey key = flatten(query);
    return key == null || repeatsATerm(key) ? Optional.empty() : Optional.of(key);
  }

  /** Whether a (field, term) pair of {@code key} stands in it more than once (they are sorted). */
  private static boolean repeatsATerm(QueryKey key) {
    List<Term> terms = key.terms();
    for (int i = 1; i < terms.size(); i++) {
      if (terms.get(i).equals(terms.get(i - 1))) {
        return true;
      }
    }
    return false;
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
      return termQuery.of(key.terms().getFirst());
    }
    BooleanClause.Occur occur =
        key.operator() == QueryKey.Operator.AND
            ? BooleanClause.Occur.MUST
            : BooleanClause.Occur.SHOULD;
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (Term term : key.terms()) {
      builder.add(termQuery.of(term), occur);
    }
    return builder.build();
  }

  /** Makes the query of one term of a key (see {@link #toQuery(QueryKey, TermQueryMaker)}). */
  @FunctionalInterface
  public interface TermQueryMaker<E extends Exception> {
    /** The query of {@code term}. */
    TermQuery of(Term term) throws E;
  }

  /** The key of {@code query} flattened (see the class javadoc), or null if it is not keyable. */
  private static QueryKey flatten(Query query) {
    if (query instanceof TermQuery term) {
      return new QueryKey(QueryKey.Operator.SINGLE, List.of(term.getTerm()));
    }
    if (!(query instanceof BooleanQuery bool)
        || bool.getMinimumNumberShouldMatch() != 0
        || bool.clauses().isEmpty()) {
      return null;
    }
    List<BooleanClause> clauses = bool.clauses();
    BooleanClause.Occur occur = clauses.getFirst().occur();
    QueryKey.Operator operator;
    if (occur == BooleanClause.Occur.MUST) {
      operator = QueryKey.Operator.AND;
    } else if (occur == BooleanClause.Occur.SHOULD) {
      operator = QueryKey.Operator.OR;
    } else {
      return null;
    }
    if (clauses.size() == 1) {
      return flatten(clauses.getFirst().query());
    }
    List<Term> terms = new ArrayList<>(clauses.size());
    for (BooleanClause clause : clauses) {
      QueryKey inner = clause.occur() == occur ? flatten(clause.query()) : null;
      if (inner == null
          || (inner.operator() != QueryKey.Operator.SINGLE && inner.operator() != operator)) {
        return null;
      }
      terms.addAll(inner.terms());
    }
    return new QueryKey(operator, terms);
  }
}
