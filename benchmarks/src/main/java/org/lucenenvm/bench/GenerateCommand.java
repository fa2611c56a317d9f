package org.lucenenvm.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code generate}: writes a synthetic Zipfian corpus (line docs) and a luceneutil tasks file. */
@Command(name = "generate", mixinStandardHelpOptions = true, description = "Write a deterministic synthetic corpus and tasks file.")
final class GenerateCommand implements Callable<Integer> {

  @Option(names = "--docs", required = true, description = "Number of documents (e.g. 10000 .. 10000000).")
  long docs;

  @Mixin CorpusOutputOptions output;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--vocabulary", defaultValue = "1000000", description = "Distinct words (default ${DEFAULT-VALUE}).")
  int vocabulary;

  @Option(names = "--zipf", defaultValue = "1.0", description = "Zipf exponent (default ${DEFAULT-VALUE}).")
  double zipf;

  @Option(names = "--body-bytes", defaultValue = "1024", description = "Mean body length in bytes (default ${DEFAULT-VALUE}).")
  int bodyBytes;

  @Mixin TaskFileOptions taskFile;

  @Override
  public Integer call() throws Exception {
    GeneratorSettings settings = new GeneratorSettings(docs, seed, vocabulary, zipf, bodyBytes, taskFile.tasksPerCategory);
    Path corpus = output.corpus;
    Path tasks = taskFile.tasks;
    WorkDirectories.createParent(corpus);
    WorkDirectories.createParent(tasks);
    var written = new CorpusGenerator(settings).generate(corpus, tasks, taskFile.luceneutilNames);
    System.err.printf("generate: wrote %,d docs to %s (%,d bytes) and %d tasks to %s%n", docs, corpus, Files.size(corpus), written.size(), tasks);
    return 0;
  }
}
