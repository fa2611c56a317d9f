package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.search.Query;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** luceneutil task files: both names of a category, and lines this runner cannot execute are skipped and counted. */
public class TestLuceneutilTasks {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static final List<String> LUCENEUTIL_LINES = List.of(
      "HighTerm: states # freq=1000",
      "MedTerm: dispute # freq=100",
      "LowTerm: nitrogen # freq=10",
      "AndHighHigh: +united +states",
      "OrHighMed: united dispute",
      "HighSpanNear: near//\"states united\"~10",
      "HighIntervalsOrdered: ordered//states united",
      "IntNRQ: nrq//timesecnum 23413 76235",
      "AndHighHighDayTaxoFacets: +united +states",
      "MedTermDayTaxoFacets: dispute +facets:Date.taxonomy",
      "HighTermMonthSort: states",
      "OrHighHighMinShould: united states nations +minShouldMatch=2",
      "CountTerm: count(states)",
      "Fuzzy1: nitrogn~1",
      "Prefix3: stat*");

  private static Workload parse(List<String> lines, List<String> categories) {
    List<Task> tasks = lines.stream().map(TaskFile::parse).toList();
    try (StandardAnalyzer analyzer = new StandardAnalyzer()) {
      return Workload.parse(tasks, categories, "body", analyzer, 1);
    }
  }

  @Test
  public void unexecutableLinesAreSkippedAndCountedPerKind() {
    Workload workload = parse(LUCENEUTIL_LINES, List.of());
    assertEquals(List.of("HighTerm", "MedTerm", "LowTerm", "AndHighHigh", "OrHighMed", "Fuzzy1", "Prefix3"), workload.categories());
    assertEquals(Map.of("near//", 1, "ordered//", 1, "nrq//", 1, "facets", 2, "sort", 1, "+minShouldMatch=", 1, "count(...)", 1), workload.skipped());
    assertEquals("tasks: skipped 8 task(s) in luceneutil syntax this runner cannot execute "
        + "(+minShouldMatch= 1, count(...) 1, facets 2, near// 1, nrq// 1, ordered// 1, sort 1)", Workload.skipNote(workload.skipped()));
  }

  @Test
  public void nothingIsSkippedInAGeneratedFile() {
    Workload workload = parse(List.of("TermHigh: baba # freq=9", "AndLowLow: +caca +dede # freq=1 freq=2"), List.of());
    assertTrue(workload.skipped().isEmpty());
  }

  @Test
  public void categoriesMatchUnderEitherName() {
    Workload workload = parse(LUCENEUTIL_LINES, List.of("TermHigh", "LowTerm"));
    assertEquals(List.of("HighTerm", "LowTerm"), workload.categories());
    assertEquals(1, workload.queries("TermHigh").size());
    assertEquals(1, workload.queries("TermLow").size());
    assertEquals("HighTerm", TaskCategories.luceneutilName("TermHigh"));
    assertEquals("AndHighHigh", TaskCategories.luceneutilName("AndHighHigh"));
    assertEquals("TermMed", TaskCategories.generatorName("MedTerm"));
  }

  @Test
  public void theWarmUpInterleavesCategoriesAndCyclesThroughEach() {
    Workload workload = parse(List.of("TermHigh: baba", "TermHigh: caca", "TermLow: dede"), List.of());
    List<Query> high = workload.queries("TermHigh");
    Query low = workload.queries("TermLow").getFirst();
    assertEquals(List.of(high.get(0), low, high.get(1), low, high.get(0), low), workload.interleaved(3));
    assertTrue(workload.interleaved(0).isEmpty());
  }

  @Test
  public void theGeneratorWritesLuceneutilNamesOnRequest() throws Exception {
    Path dir = temp.newFolder().toPath();
    List<Task> tasks = new CorpusGenerator(new GeneratorSettings(1000, 7, 2000, 1.0, 256, 5))
        .generate(dir.resolve("c.txt"), dir.resolve("c.tasks"), true);
    List<String> categories = TaskFile.read(dir.resolve("c.tasks")).stream().map(Task::category).distinct().toList();
    assertEquals(tasks.stream().map(Task::category).distinct().toList(), categories);
    assertTrue(categories.toString(), categories.contains("HighTerm") && categories.contains("MedTerm"));
    assertTrue(categories.toString(), categories.stream().noneMatch(c -> c.startsWith("Term")));
  }

  @Test
  public void aCategoryWithOnlyUnexecutableTasksIsAnErrorWhenAskedFor() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(LUCENEUTIL_LINES, List.of("IntNRQ")));
    assertTrue(e.getMessage(), e.getMessage().contains("IntNRQ"));
  }
}
