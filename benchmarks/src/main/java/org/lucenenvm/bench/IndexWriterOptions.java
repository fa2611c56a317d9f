package org.lucenenvm.bench;

import picocli.CommandLine.Option;

/** How {@code run} and {@code compare} build an NC index with an IndexWriter (a picocli mixin). */
final class IndexWriterOptions {

  @Option(names = "--ram-buffer-mb", defaultValue = "128", description = "IndexWriter RAM buffer (default ${DEFAULT-VALUE}).")
  double ramBufferMb;

  @Option(names = "--force-merge", defaultValue = "1", description = "NC: force-merge to this many segments, 0 = no (default ${DEFAULT-VALUE}).")
  int forceMerge;
}
