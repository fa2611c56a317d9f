package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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

  private Workload(Map<String, List<Query>> byCategory) {
    this.byCategory = byCategory;
  }

  /**
   * Parses {@code tasks}, keeping only {@code categories} if that list is not empty.
   *
   * @throws IllegalArgumentException naming the task that does not parse, or a requested category
   *     that has no task
   */
  public static Workload parse(List<Task> tasks, List<String> categories, String field, Analyzer analyzer, long seed) {
    QueryParser parser = new QueryParser(field, analyzer);
    Map<String, List<Query>> byCategory = new LinkedHashMap<>();
    for (Task task : tasks) {
      if (!categories.isEmpty() && !categories.contains(task.category())) {
        continue;
      }
      try {
        byCategory.computeIfAbsent(task.category(), k -> new ArrayList<>()).add(parser.parse(task.query()));
      } catch (ParseException e) {
        throw new IllegalArgumentException("task does not parse: '" + task.toLine() + "': " + e.getMessage(), e);
      }
    }
    for (String category : categories) {
      if (!byCategory.containsKey(category)) {
        throw new IllegalArgumentException("no task of category '" + category + "' in the tasks file");
      }
    }
    if (byCategory.isEmpty()) {
      throw new IllegalArgumentException("the tasks file has no task");
    }
    SplittableRandom random = new SplittableRandom(seed);
    byCategory.replaceAll((category, queries) -> shuffled(queries, random));
    return new Workload(byCategory);
  }

  /** Category names in file order. */
  public List<String> categories() {
    return List.copyOf(byCategory.keySet());
  }

  /** The queries of {@code category}, in run order. */
  public List<Query> queries(String category) {
    return byCategory.get(category);
  }

  private static List<Query> shuffled(List<Query> queries, SplittableRandom random) {
    List<Query> copy = new ArrayList<>(queries);
    for (int i = copy.size() - 1; i > 0; i--) {
      Collections.swap(copy, i, random.nextInt(i + 1));
    }
    return List.copyOf(copy);
  }
}
