package org.lucenenvm.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code realtext}: a corpus of short real documents from unpacked documentation packages ({@link
 * RealTextCorpus}, words counted with the runner's {@code StandardAnalyzer}); {@code
 * scripts/realtext-corpus.sh} fetches and unpacks the packages and runs it, then {@code tasks}.
 */
@Command(name = "realtext", mixinStandardHelpOptions = true,
    description = "Write a line-doc corpus of short documents from unpacked documentation packages (<source>/<package>/usr/share/...).")
final class RealTextCommand implements Callable<Integer> {

  @Option(names = "--source", required = true, description = "Directory with one unpacked package per sub-directory (dpkg-deb -x).")
  Path source;

  @Mixin CorpusOutputOptions output;

  @Option(names = "--min-words", defaultValue = "5", description = "Fewest words of a document (default ${DEFAULT-VALUE}).")
  int minWords;

  @Option(names = "--max-words", defaultValue = "60", description = "Most words of a document; longer paragraphs are split into sentences (default ${DEFAULT-VALUE}).")
  int maxWords;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the documents' shuffled order (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(source)) {
      throw new IllegalArgumentException("--source " + source + " is not a directory");
    }
    WorkDirectories.createParent(output.corpus);
    RealTextCorpus.Summary summary;
    try (Analyzer analyzer = new StandardAnalyzer()) {
      summary = new RealTextCorpus(minWords, maxWords, seed).build(source, output.corpus, analyzer);
    }
    System.out.print(summary.format());
    System.err.printf("realtext: wrote %,d docs to %s (%,d bytes)%n", summary.documents(), output.corpus, Files.size(output.corpus));
    return 0;
  }
}
