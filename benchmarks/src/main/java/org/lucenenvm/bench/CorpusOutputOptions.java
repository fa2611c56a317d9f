package org.lucenenvm.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The line-doc corpus file that {@code generate} and {@code realtext} write (a picocli mixin). */
final class CorpusOutputOptions {

  @Option(names = "--corpus", required = true, description = "Line-doc file to write (title<TAB>date<TAB>body).")
  Path corpus;
}
