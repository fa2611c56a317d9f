package org.lucenenvm.server;

import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.automaton.RegExp;
import org.apache.lucene.util.automaton.TooComplexToDeterminizeException;

/**
 * Lucene's classic multi-field query parser under the server's {@link QueryLimits}: regular
 * expressions are refused (400) when longer than {@code maxRegexpLength} or when their syntax
 * tree describes more than {@code maxRegexpStates} states ({@link RegexpSize}), before any
 * automaton is built; regexp and wildcard automata are determinized within {@code
 * determinizeWorkLimit} (400 beyond); wildcard, prefix, regexp, range and fuzzy queries expand to
 * at most {@code maxExpansions} terms (top-terms rewrite). Leading wildcards are refused.
 */
final class BoundedQueryParser extends MultiFieldQueryParser {
  private final QueryLimits limits;

  BoundedQueryParser(String[] fields, Analyzer analyzer, QueryLimits limits) {
    super(fields, analyzer);
    this.limits = limits;
    setAllowLeadingWildcard(false);
    setDeterminizeWorkLimit(limits.determinizeWorkLimit());
    setMultiTermRewriteMethod(
        new MultiTermQuery.TopTermsBlendedFreqScoringRewrite(limits.maxExpansions()));
  }

  @Override
  protected Query newRegexpQuery(Term regexp) {
    String text = regexp.text();
    checkLength("regular expression", text);
    long states = RegexpSize.states(new RegExp(text, RegExp.ALL));
    if (states > limits.maxRegexpStates()) {
      throw new ApiException(
          400,
          "regular expression /" + abbreviate(text) + "/ describes about " + states
              + " automaton states, more than max-regexp-states (" + limits.maxRegexpStates() + ")");
    }
    return determinized("regular expression /" + abbreviate(text) + "/", () -> super.newRegexpQuery(regexp));
  }

  @Override
  protected Query newWildcardQuery(Term t) {
    checkLength("wildcard pattern", t.text());
    return determinized("wildcard pattern '" + abbreviate(t.text()) + "'", () -> super.newWildcardQuery(t));
  }

  @Override
  protected Query newFuzzyQuery(Term term, float minimumSimilarity, int prefixLength) {
    String text = term.text();
    int edits = FuzzyQuery.floatToEdits(minimumSimilarity, text.codePointCount(0, text.length()));
    return new FuzzyQuery(term, edits, prefixLength, limits.maxExpansions(), FuzzyQuery.defaultTranspositions);
  }

  private void checkLength(String what, String text) {
    if (text.length() > limits.maxRegexpLength()) {
      throw new ApiException(
          400,
          what + " of " + text.length() + " characters is longer than max-regexp-length ("
              + limits.maxRegexpLength() + ")");
    }
  }

  private Query determinized(String what, Supplier<Query> build) {
    try {
      return build.get();
    } catch (TooComplexToDeterminizeException e) {
      throw new ApiException(
          400,
          what + " is too complex: determinizing it needs more work than determinize-work-limit ("
              + limits.determinizeWorkLimit() + ")");
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }
}
