package org.lucenenvm.bench;

import java.util.List;
import java.util.Map;

/**
 * The two names of the term categories: luceneutil's ({@code HighTerm}, {@code MedTerm}, {@code
 * LowTerm}) and the generator's ({@code TermHigh}, {@code TermMed}, {@code TermLow}). Every other
 * category has one name in both (luceneutil's {@code AndHighHigh}, {@code OrHighHigh}, {@code
 * OrHighMed}, {@code OrHighLow} are also the generator's; {@code AndMedMed}, {@code AndLowLow} are the
 * generator's only).
 */
public final class TaskCategories {

  private static final Map<String, String> GENERATOR_TO_LUCENEUTIL =
      Map.of("TermHigh", "HighTerm", "TermMed", "MedTerm", "TermLow", "LowTerm");
  private static final Map<String, String> LUCENEUTIL_TO_GENERATOR =
      Map.of("HighTerm", "TermHigh", "MedTerm", "TermMed", "LowTerm", "TermLow");

  private TaskCategories() {}

  /** luceneutil's name of a generator category ({@code TermHigh} → {@code HighTerm}), else the name itself. */
  public static String luceneutilName(String category) {
    return GENERATOR_TO_LUCENEUTIL.getOrDefault(category, category);
  }

  /** {@code tasks} with luceneutil's category names ({@link #luceneutilName}). */
  public static List<Task> withLuceneutilNames(List<Task> tasks) {
    return tasks.stream().map(t -> new Task(luceneutilName(t.category()), t.query(), t.comment())).toList();
  }

  /** The generator's name of a category ({@code HighTerm} → {@code TermHigh}), else the name itself. */
  public static String generatorName(String category) {
    return LUCENEUTIL_TO_GENERATOR.getOrDefault(category, category);
  }

  /** Whether two category names mean the same category. */
  public static boolean same(String a, String b) {
    return generatorName(a).equals(generatorName(b));
  }
}
