package org.lucenenvm.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tasks}: a luceneutil tasks file from a line-doc corpus's own document frequencies ({@link CorpusTasks}). */
@Command(name = "tasks", mixinStandardHelpOptions = true,
    description = "Write a luceneutil .tasks file whose term classes come from a line-doc corpus's own document frequencies (StandardAnalyzer on body).")
final class TasksCommand implements Callable<Integer> {

  @Option(names = "--corpus", required = true, description = "Line-doc corpus to read.")
  Path corpus;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of the sampled tasks (default ${DEFAULT-VALUE}).")
  long seed;

  @Mixin TaskFileOptions taskFile;

  @Override
  public Integer call() throws Exception {
    CorpusTasks.Result result;
    try (Analyzer analyzer = new StandardAnalyzer()) {
      result = new CorpusTasks(taskFile.tasksPerCategory, seed).derive(corpus, analyzer);
    }
    List<Task> written = taskFile.luceneutilNames ? TaskCategories.withLuceneutilNames(result.tasks()) : result.tasks();
    Path tasks = taskFile.tasks;
    WorkDirectories.createParent(tasks);
    TaskFile.write(tasks, "derived from " + corpus.getFileName() + " by lucene-nvm benchmarks tasks (seed " + seed + ", " + taskFile.tasksPerCategory
        + " per category, body analysed with StandardAnalyzer): " + result.describe() + "; term classes by document share: " + TermClass.bounds(),
        written);
    System.out.println("tasks: " + result.describe());
    System.err.printf("tasks: wrote %d tasks to %s%n", written.size(), tasks);
    return 0;
  }
}
