package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.lucenenvm.server.ProgressMeter;

/**
 * Tasks for any line-doc corpus from its own document frequencies: pass one reads the corpus and
 * numbers the distinct body terms ({@link BodyTerms}: the runner's analysis) in order of first
 * appearance, counting each one's document frequency; pass two reads it again for the {@link
 * TaskSampler}'s co-occurring pairs. Every sampled term is written escaped for the runner's parser
 * (classic {@link QueryParser} on {@value DocumentFactory#BODY}, the same analyzer) and must parse
 * back to exactly that term, so the tasks' terms and {@code freq=} comments agree with the index the
 * runner builds. Memory is proportional to the distinct terms, not the documents.
 */
public final class CorpusTasks {

  private final int tasksPerCategory;
  private final long seed;

  /** Up to {@code tasksPerCategory} tasks per category, sampled with {@code seed}. */
  public CorpusTasks(int tasksPerCategory, long seed) {
    if (tasksPerCategory < 1) {
      throw new IllegalArgumentException("tasks per category must be >= 1: " + tasksPerCategory);
    }
    this.tasksPerCategory = tasksPerCategory;
    this.seed = seed;
  }

  /**
   * The tasks of {@code corpus} with the corpus's figures.
   *
   * @param tasks the tasks, in the {@link TaskSampler}'s category order
   * @param docs documents of the corpus
   * @param terms body terms of all documents, repeats included
   * @param distinctTerms distinct body terms
   * @param classSizes distinct terms per {@link TermClass}
   */
  public record Result(List<Task> tasks, long docs, long terms, int distinctTerms, Map<TermClass, Integer> classSizes) {
    /** The figures as one line. */
    public String describe() {
      return String.format(Locale.ROOT, "%d docs, %.2f terms per doc, %d distinct terms (Low %d, Med %d, High %d), %d tasks", docs,
          docs == 0 ? 0.0 : (double) terms / docs, distinctTerms, classSizes.get(TermClass.LOW), classSizes.get(TermClass.MED),
          classSizes.get(TermClass.HIGH), tasks.size());
    }
  }

  /** Samples the tasks of {@code corpus}, its bodies analysed with {@code analyzer}. */
  public Result derive(Path corpus, Analyzer analyzer) throws IOException {
    BodyTerms bodyTerms = new BodyTerms(analyzer);
    TermStatistics stats = new TermStatistics();
    try (LineDocReader reader = LineDocReader.open(corpus);
        ProgressMeter progress = new ProgressMeter("term statistics", 0, "docs")) {
      for (LineDoc doc = reader.next(); doc != null; doc = reader.next()) {
        stats.add(bodyTerms.of(doc.body()));
        progress.advance(1);
      }
    }
    if (stats.docs == 0) {
      throw new IllegalArgumentException(corpus + " holds no document");
    }
    int[] docFreq = stats.docFreqs();
    QueryParser parser = new QueryParser(DocumentFactory.BODY, analyzer);
    TaskSampler sampler = new TaskSampler(stats.docs, tasksPerCategory, seed, "tasks");
    List<Task> tasks = sampler.sample(docFreq, id -> queryWord(parser, stats.names.get(id)), consumer -> {
      int[] ids = new int[64];
      try (LineDocReader reader = LineDocReader.open(corpus)) {
        for (LineDoc doc = reader.next(); doc != null; doc = reader.next()) {
          List<String> body = bodyTerms.of(doc.body());
          if (body.size() > ids.length) {
            ids = new int[Math.max(body.size(), 2 * ids.length)];
          }
          for (int i = 0; i < body.size(); i++) {
            ids[i] = stats.ids.get(body.get(i));
          }
          consumer.accept(ids, body.size());
        }
      }
    });
    Map<TermClass, Integer> classSizes = new EnumMap<>(TermClass.class);
    for (TermClass c : TermClass.values()) {
      classSizes.put(c, (int) Arrays.stream(docFreq).filter(f -> TermClass.of(f, stats.docs) == c).count());
    }
    return new Result(tasks, stats.docs, stats.terms, stats.names.size(), classSizes);
  }

  /** Pass one: the distinct body terms, numbered in order of first appearance, and their document frequencies. */
  private static final class TermStatistics {
    final Map<String, Integer> ids = new HashMap<>();
    final List<String> names = new ArrayList<>();
    int[] docFreq = new int[1 << 16];
    long[] lastDoc = new long[1 << 16];
    long docs;
    long terms;

    /** Counts the next document, whose body terms are {@code body}. */
    void add(List<String> body) {
      docs++;
      for (String term : body) {
        terms++;
        int id = ids.computeIfAbsent(term, t -> {
          names.add(t);
          return names.size() - 1;
        });
        if (id == docFreq.length) {
          docFreq = Arrays.copyOf(docFreq, 2 * id);
          lastDoc = Arrays.copyOf(lastDoc, 2 * id);
        }
        if (lastDoc[id] != docs) {
          lastDoc[id] = docs;
          docFreq[id]++;
        }
      }
    }

    /** The document frequency of every term, by number. */
    int[] docFreqs() {
      return Arrays.copyOf(docFreq, names.size());
    }
  }

  /**
   * {@code term} in query syntax (escaped), after checking that the runner's parser turns it into
   * exactly that one body term: otherwise the query would not search what the corpus counted.
   */
  private static String queryWord(QueryParser parser, String term) {
    String word = QueryParser.escape(term);
    Query query;
    try {
      query = parser.parse(word);
    } catch (ParseException e) {
      throw new IllegalStateException("term '" + term + "' as query '" + word + "' does not parse: " + e.getMessage(), e);
    }
    if (!(query instanceof TermQuery termQuery) || !termQuery.getTerm().equals(new Term(DocumentFactory.BODY, term))) {
      throw new IllegalStateException("term '" + term + "' as query '" + word + "' parses to " + query
          + ", not the term itself: the query parser's analysis disagrees with the corpus's");
    }
    return word;
  }
}
