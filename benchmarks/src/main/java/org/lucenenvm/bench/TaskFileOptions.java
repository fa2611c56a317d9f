package org.lucenenvm.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of a written tasks file that {@code generate} and {@code tasks} share (a picocli mixin). */
final class TaskFileOptions {

  @Option(names = "--tasks", required = true, description = "luceneutil .tasks file to write.")
  Path tasks;

  @Option(names = "--tasks-per-category", defaultValue = "500", description = "Distinct tasks per category (default ${DEFAULT-VALUE}).")
  int tasksPerCategory;

  @Option(names = "--luceneutil-names", description = "Name the term categories as luceneutil does (HighTerm, MedTerm, LowTerm instead of TermHigh, TermMed, TermLow).")
  boolean luceneutilNames;
}
