package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The corpus options {@code run} and {@code compare} share (a picocli mixin). */
final class CorpusOptions {

  @Option(names = "--corpus", required = true, description = "luceneutil line-doc file.")
  Path corpus;

  @Option(names = "--tasks", required = true, description = "luceneutil .tasks file.")
  Path tasks;

  @Option(names = "--docs", defaultValue = "0", description = "Documents to index, 0 = the whole corpus (default).")
  long docs;

  /** The documents to index: {@code --docs}, or the whole corpus; more than it holds is an error. */
  long documentsToIndex() throws IOException {
    long corpusDocs = CorpusIngest.countDocs(corpus);
    long indexDocs = docs <= 0 ? corpusDocs : docs;
    if (indexDocs > corpusDocs) {
      throw new IllegalArgumentException("--docs " + docs + " but " + corpus + " has only " + corpusDocs + " documents");
    }
    return indexDocs;
  }
}
