package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The query options {@code run}, {@code compare} and {@code query} share (a picocli mixin), and
 * their command-line form, so that {@code compare} hands exactly its own settings to its child JVMs.
 */
final class QueryOptions {

  @Option(names = "--categories", split = ",", description = "Only these task categories (default: all in the tasks file; luceneutil and generator names of a category are interchangeable).")
  List<String> categories = new ArrayList<>();

  @Option(names = "--field", defaultValue = DocumentFactory.BODY, description = "Default query field (default ${DEFAULT-VALUE}).")
  String field;

  @Option(names = "--query-threads", defaultValue = "1", description = "Query threads (default ${DEFAULT-VALUE}).")
  int queryThreads;

  @Option(names = "--pin-threads", description = "Pin query/ingest threads to CPUs (OpenHFT affinity) where possible.")
  boolean pinThreads;

  @Option(names = "--queries-per-category", defaultValue = "2000", description = "NC, and WRT with --warmup-share 1: timed queries per category (default ${DEFAULT-VALUE}).")
  int queriesPerCategory;

  @Option(names = "--warmup-queries-per-category", defaultValue = "500", description = "NC untimed warm-up queries per category, run twice: all categories interleaved first, then each category's own before its timed queries (default ${DEFAULT-VALUE}).")
  int warmupQueries;

  @Option(names = "--top-k", defaultValue = "10", description = "Hits per query (default ${DEFAULT-VALUE}).")
  int topK;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the query order (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--query-popularity", defaultValue = "uniform", converter = PopularityConverter.class,
      description = "uniform (each task as often as in the tasks file) or zipf:<s>: per category, a seeded stream of "
          + QueryPopularity.ZIPF_STREAM + " Zipf-distributed draws over its distinct queries (default ${DEFAULT-VALUE}).")
  QueryPopularity popularity;

  /** Parses {@code --query-popularity}. */
  static final class PopularityConverter implements CommandLine.ITypeConverter<QueryPopularity> {
    @Override
    public QueryPopularity convert(String value) {
      return QueryPopularity.parse(value);
    }
  }

  /** The workload of {@code tasks} these options select, in their query order and popularity. */
  Workload workload(List<Task> tasks, Analyzer analyzer) {
    return Workload.parse(tasks, categories, field, analyzer, seed).withPopularity(popularity, seed);
  }

  /** These options as command-line arguments. */
  List<String> toArgs() {
    List<String> args = new ArrayList<>(List.of(
        "--field", field,
        "--query-threads", Integer.toString(queryThreads),
        "--queries-per-category", Integer.toString(queriesPerCategory),
        "--warmup-queries-per-category", Integer.toString(warmupQueries),
        "--top-k", Integer.toString(topK),
        "--seed", Long.toString(seed),
        "--query-popularity", popularity.toString()));
    if (!categories.isEmpty()) {
      args.add("--categories");
      args.add(String.join(",", categories));
    }
    if (pinThreads) {
      args.add("--pin-threads");
    }
    return args;
  }
}
