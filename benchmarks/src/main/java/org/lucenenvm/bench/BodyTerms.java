package org.lucenenvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The terms the runner indexes for a body text: {@code analyzer}'s tokens on the {@value
 * DocumentFactory#BODY} field, in order, repeats included. With the runner's {@code
 * StandardAnalyzer} these are the words the real-text corpus counts and the terms whose document
 * frequencies its tasks come from. Confined to one thread, as the analyzer's token streams are.
 */
public final class BodyTerms {

  private final Analyzer analyzer;
  private final List<String> terms = new ArrayList<>();

  /** Terms as {@code analyzer} makes them. */
  public BodyTerms(Analyzer analyzer) {
    this.analyzer = analyzer;
  }

  /** The terms of {@code text}; the list is reused by the next call. */
  public List<String> of(String text) {
    terms.clear();
    try (TokenStream stream = analyzer.tokenStream(DocumentFactory.BODY, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        terms.add(term.toString());
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException("analysing a body in memory failed", e);
    }
    return terms;
  }
}
