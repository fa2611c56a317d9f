package org.lucenenvm.server;

import picocli.CommandLine.Option;

/**
 * The client side of the server load benchmarks ({@link LoadBenchmark}, {@link SoakBenchmark}), a
 * picocli mixin: how many threads ingest and query, how many documents go in one bulk request, and
 * how many partitions the index has.
 */
final class LoadClients {
  @Option(names = "--batch", defaultValue = "100", description = "Documents per bulk request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--writers", defaultValue = "2", description = "Ingest threads (default: ${DEFAULT-VALUE}).")
  int writers;

  @Option(names = "--searchers", defaultValue = "2", description = "Query threads (default: ${DEFAULT-VALUE}).")
  int searchers;

  @Option(names = "--partitions", defaultValue = "2", description = "Index partitions (default: ${DEFAULT-VALUE}).")
  int partitions;
}
