package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The WRT warm-up options of {@code run} and {@code compare}: untimed passes of a configuration,
 * in the JVM that then times it, on a scratch directory deleted afterwards. They exist because on a
 * small machine a JVM's first row is measured while C2 still compiles its hot methods (ingest,
 * query, flush and merge threads leave the compiler little CPU), which lasts through most of a
 * first run. {@code run} defaults to no pass (its rows share one JVM, unless {@code --forks});
 * {@code compare}, whose every WRT child is a fresh JVM with one row, to one.
 */
final class WarmupOptions {

  @Option(names = "--warmup-runs",
      description = "WRT: untimed passes of each configuration before its timed one, in the same JVM, on a scratch directory deleted"
          + " afterwards; they warm the JIT so that a JVM's first row is not measured while its hot methods still compile"
          + " (default: run 0, compare 1).")
  Integer runs;

  @Option(names = "--warmup-docs", description = "WRT: documents a warm-up pass ingests (default: all those of the timed pass).")
  Long docs;

  /** The number of warm-up passes, {@code defaultRuns} when not given. */
  int runs(int defaultRuns) {
    return runs == null ? defaultRuns : runs;
  }

  /** The documents a warm-up pass ingests at most ({@link Long#MAX_VALUE}: all of the timed pass's). */
  long docsPerPass() {
    return docs == null ? Long.MAX_VALUE : docs;
  }

  /** Refuses negative passes and a pass of no documents, naming the option. */
  void check() {
    if (runs != null && runs < 0) {
      throw new IllegalArgumentException("--warmup-runs must be >= 0: " + runs);
    }
    if (docs != null && docs < 1) {
      throw new IllegalArgumentException("--warmup-docs must be >= 1 (leave it out for all the documents of the timed pass): " + docs);
    }
  }

  /** These options as {@code run} arguments of a child JVM, with {@code defaultRuns} passes when not given. */
  List<String> toArgs(int defaultRuns) {
    List<String> args = new ArrayList<>(List.of("--warmup-runs", Integer.toString(runs(defaultRuns))));
    if (docs != null) {
      args.addAll(List.of("--warmup-docs", Long.toString(docs)));
    }
    return args;
  }
}
