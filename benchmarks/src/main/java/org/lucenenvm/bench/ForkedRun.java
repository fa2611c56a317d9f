package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code run --forks N}: every configuration row in a child JVM of its own ({@link ChildJvm}), N
 * rounds over all of them, the order rotated by one per round ({@link JvmSchedule#rotated}).
 *
 * <p>Why: in one JVM the rows run one after the other, and on a small machine the first row pays
 * for the JIT's compilation of the hot methods (C2 is starved while ingest, query, flush and merge
 * threads are busy), so rows compare with their position. In a fresh JVM per row, warmed by {@code
 * --warmup-runs} untimed passes of the same configuration, every row starts alike.
 *
 * <p>Layout under the output directory, per round {@code r}: {@code run<r>/jvms/<nn>-<label>/}
 * holds the output of the round's {@code nn}-th child ({@code results.csv}, {@code table.txt},
 * {@value EngineFacts#FILE}, ...) with its {@code command.txt}, {@code stdout.log} and {@code
 * stderr.log}; {@code run<r>/} gets the files a single-JVM {@code run} writes, merged over the
 * round's children in configuration order ({@link #runRound} returns the rows; the engine facts and
 * the per-category cache outcomes are concatenated here). {@value #JVMS_CSV}: one line per child
 * in run order, {@code round, jvm, configuration, started, load1_start, load5_start, load15_start,
 * load1_end, load5_end, load15_end, seconds}.
 */
final class ForkedRun {

  /** The children's list in the output directory. */
  static final String JVMS_CSV = "jvms.csv";

  private static final List<String> JVMS_HEADER = List.of("round", "jvm", "configuration", "started", "load1_start", "load5_start",
      "load15_start", "load1_end", "load5_end", "load15_end", "seconds");

  /** Files a child may write besides {@code results.csv}, concatenated over a round's children. */
  private static final List<String> CONCATENATED = List.of(EngineFacts.FILE, CategoryCacheOutcomes.FILE);

  /**
   * One configuration row of {@code run}.
   *
   * @param label its name in directory names and logs, e.g. {@code NC-lucene-dram}, {@code NRT-1000}
   * @param selection the {@code run} options that select this row alone
   */
  record Row(String label, List<String> selection) {}

  private final List<Row> rows;
  private final List<String> commonArgs;
  private final List<String> jvmOptions;
  private final Path out;
  private final Path workDir;
  private final boolean keepIndexes;

  /**
   * A forked run of {@code rows}.
   *
   * @param rows the configurations, in result order
   * @param commonArgs the {@code run} options every child gets (the parent's, without those that
   *     select rows, output, work directory and forking)
   * @param jvmOptions the children's JVM options, empty = this JVM's own
   * @param out the parent's output directory
   * @param workDir the parent's work directory; each child works in a directory of its own below it
   * @param keepIndexes whether the children keep their indexes (else their work directories are deleted)
   */
  ForkedRun(List<Row> rows, List<String> commonArgs, List<String> jvmOptions, Path out, Path workDir, boolean keepIndexes) {
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("--forks: no configuration to run (check --modes, --configs, --nrt and --rt)");
    }
    this.rows = List.copyOf(rows);
    this.commonArgs = List.copyOf(commonArgs);
    this.jvmOptions = List.copyOf(jvmOptions);
    this.out = out;
    this.workDir = workDir;
    this.keepIndexes = keepIndexes;
  }

  /** The directory of round {@code round}'s merged output. */
  Path roundDir(int round) {
    return out.resolve("run" + round);
  }

  /** Deletes a previous run's {@value #JVMS_CSV}. */
  void start() throws IOException {
    Files.deleteIfExists(out.resolve(JVMS_CSV));
  }

  /**
   * Runs round {@code round} (1-based): each configuration in a child JVM, in rotated order; then
   * concatenates their engine facts and cache outcomes into {@link #roundDir} and returns their
   * result rows in configuration order. A child that fails stops the run (the exception has the
   * end of its stderr).
   */
  List<ResultRow> runRound(int round) throws IOException {
    Path roundDir = roundDir(round);
    WorkDirectories.delete(roundDir);
    Files.createDirectories(roundDir);
    List<Integer> order = JvmSchedule.rotated(rows.size(), round);
    Path[] outputs = new Path[rows.size()];
    for (int position = 1; position <= order.size(); position++) {
      int configuration = order.get(position - 1);
      outputs[configuration] = runChild(round, position, rows.get(configuration), roundDir);
    }
    List<ResultRow> merged = new ArrayList<>();
    for (Path output : outputs) {
      merged.addAll(ResultsCsv.read(output.resolve("results.csv")));
    }
    for (String file : CONCATENATED) {
      List<Path> parts = new ArrayList<>();
      for (Path output : outputs) {
        parts.add(output.resolve(file));
      }
      CsvTable.concatenate(parts, roundDir.resolve(file));
    }
    return merged;
  }

  private Path runChild(int round, int position, Row row, Path roundDir) throws IOException {
    String name = String.format(Locale.ROOT, "%02d-%s", position, row.label());
    Path dir = roundDir.resolve("jvms").resolve(name);
    Path childWork = workDir.resolve("run" + round + "-" + name);
    List<String> args = new ArrayList<>(List.of("run", "--out", dir.toString(), "--work-dir", childWork.toString()));
    args.addAll(commonArgs);
    args.addAll(row.selection());
    System.err.printf("run: round %d, JVM %d/%d, %s%n", round, position, rows.size(), row.label());
    MachineLoad start = MachineLoad.now();
    long startNanos = System.nanoTime();
    try {
      ChildJvm.run(ChildJvm.command(jvmOptions, args), dir);
    } finally {
      if (!keepIndexes) {
        WorkDirectories.delete(childWork);
      }
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    MachineLoad end = MachineLoad.now();
    CsvTable.append(out.resolve(JVMS_CSV), JVMS_HEADER, List.of(Integer.toString(round), Integer.toString(position), row.label(),
        start.at().toString(), load(start.one()), load(start.five()), load(start.fifteen()), load(end.one()), load(end.five()),
        load(end.fifteen()), CsvTable.number(seconds, 1)));
    return dir;
  }

  private static String load(double v) {
    return CsvTable.number(v, 2);
  }
}
