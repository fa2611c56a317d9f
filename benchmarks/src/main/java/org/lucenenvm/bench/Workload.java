package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.Query;

/**
 * Parsed tasks grouped by category, in the order categories first appear in the tasks file. Queries
 * are parsed once, with Lucene's classic query parser (luceneutil's {@code +a +b} and {@code a b}
 * syntax) against one default field, and shuffled per category with a seed so every configuration
 * runs the same sequence.
 */
public final class Workload {

  private final Map<String, List<Query>> byCategory;
  private final Map<String, Integer> skipped;

  private Workload(Map<String, List<Query>> byCategory, Map<String, Integer> skipped) {
    this.byCategory = byCategory;
    this.skipped = skipped;
  }

  /**
   * Parses {@code tasks}, keeping only {@code categories} if that list is not empty (a category
   * matches under its luceneutil or generator name, see {@link TaskCategories}). Tasks in luceneutil
   * syntax this runner cannot execute ({@link UnsupportedTaskSyntax}) are skipped and counted per
   * kind; if any were, one line on stderr says how many of each.
   *
   * @throws IllegalArgumentException naming the task that does not parse, or a requested category
   *     that has no task
   */
  public static Workload parse(List<Task> tasks, List<String> categories, String field, Analyzer analyzer, long seed) {
    QueryParser parser = new QueryParser(field, analyzer);
    Map<String, List<Query>> byCategory = new LinkedHashMap<>();
    Map<String, Integer> skipped = new TreeMap<>();
    for (Task task : tasks) {
      if (!categories.isEmpty() && categories.stream().noneMatch(c -> TaskCategories.same(c, task.category()))) {
        continue;
      }
      String unsupported = UnsupportedTaskSyntax.kindOf(task);
      if (unsupported != null) {
        skipped.merge(unsupported, 1, Integer::sum);
        continue;
      }
      try {
        byCategory.computeIfAbsent(task.category(), k -> new ArrayList<>()).add(parser.parse(task.query()));
      } catch (ParseException e) {
        throw new IllegalArgumentException("task does not parse: '" + task.toLine() + "': " + e.getMessage(), e);
      }
    }
    if (!skipped.isEmpty()) {
      System.err.println(skipNote(skipped));
    }
    for (String category : categories) {
      if (byCategory.keySet().stream().noneMatch(c -> TaskCategories.same(c, category))) {
        throw new IllegalArgumentException("no task of category '" + category + "' that this runner can execute in the tasks file");
      }
    }
    if (byCategory.isEmpty()) {
      throw new IllegalArgumentException("the tasks file has no task this runner can execute");
    }
    SplittableRandom random = new SplittableRandom(seed);
    byCategory.replaceAll((category, queries) -> shuffled(queries, random));
    return new Workload(byCategory, Map.copyOf(skipped));
  }

  /**
   * This workload with each category's queries replaced by the stream {@code popularity} replays
   * (the same object when uniform), drawn with {@code seed}.
   */
  public Workload withPopularity(QueryPopularity popularity, long seed) {
    if (popularity.zipfExponent() == 0) {
      return this;
    }
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, List<Query>> streams = new LinkedHashMap<>();
    byCategory.forEach((category, queries) -> streams.put(category, popularity.stream(queries, random)));
    return new Workload(streams, skipped);
  }

  /** Tasks skipped as unexecutable, by kind of syntax (empty if none). */
  public Map<String, Integer> skipped() {
    return skipped;
  }

  /** The one line that reports skipped tasks, e.g. {@code tasks: skipped 3 ... (near// 2, nrq// 1)}. */
  static String skipNote(Map<String, Integer> skipped) {
    int total = skipped.values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder kinds = new StringBuilder();
    new TreeMap<>(skipped).forEach((kind, n) -> kinds.append(kinds.isEmpty() ? "" : ", ").append(kind).append(' ').append(n));
    return "tasks: skipped " + total + " task(s) in luceneutil syntax this runner cannot execute (" + kinds + ")";
  }

  /** Each category's queries in run order, categories in file order. */
  public Map<String, List<Query>> byCategory() {
    return Collections.unmodifiableMap(byCategory);
  }

  /** Category names in file order. */
  public List<String> categories() {
    return List.copyOf(byCategory.keySet());
  }

  /** The queries of {@code category} (under either of its names), in run order. */
  public List<Query> queries(String category) {
    List<Query> queries = byCategory.get(category);
    if (queries != null) {
      return queries;
    }
    return byCategory.entrySet().stream()
        .filter(e -> TaskCategories.same(e.getKey(), category))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no category '" + category + "' in " + categories()));
  }

  /**
   * {@code perCategory} queries of every category, interleaved: the first query of each category
   * in category order, then the second of each, and so on, each category cycling through its run
   * order as {@link #queries} does.
   */
  public List<Query> interleaved(int perCategory) {
    List<Query> mixed = new ArrayList<>(perCategory * byCategory.size());
    for (int i = 0; i < perCategory; i++) {
      for (List<Query> queries : byCategory.values()) {
        mixed.add(queries.get(i % queries.size()));
      }
    }
    return mixed;
  }

  private static List<Query> shuffled(List<Query> queries, SplittableRandom random) {
    List<Query> copy = new ArrayList<>(queries);
    for (int i = copy.size() - 1; i > 0; i--) {
      Collections.swap(copy, i, random.nextInt(i + 1));
    }
    return List.copyOf(copy);
  }
}
