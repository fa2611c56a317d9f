package org.lucenenvm.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code plot}: prints the table and draws the PNG charts of one or more results CSVs. With several
 * CSVs (e.g. separate NC and WRT runs) their rows are concatenated and also written to the output
 * directory as {@code results.csv} and {@code table.txt}; a configuration (mode and name) that
 * appears in several CSVs keeps the rows of the last CSV that has it, so a later run replaces an
 * earlier one (e.g. a configuration that older runs could not measure).
 */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Print the table and draw PNG charts from results CSV(s).")
final class PlotCommand implements Callable<Integer> {

  @Option(names = "--csv", required = true, split = ",", description = "Results CSV(s) written by 'run'.")
  List<Path> csvs;

  @Option(names = "--out", description = "Directory for the PNG files (default: the first CSV's directory).")
  Path out;

  @Option(names = "--subtitle", defaultValue = "", description = "Text added to every chart title.")
  String subtitle;

  @Override
  public Integer call() throws Exception {
    Map<String, List<ResultRow>> byConfiguration = new LinkedHashMap<>();
    for (Path csv : csvs) {
      Map<String, List<ResultRow>> fromCsv = new LinkedHashMap<>();
      for (ResultRow r : ResultsCsv.read(csv)) {
        fromCsv.computeIfAbsent(ResultTable.key(r), k -> new ArrayList<>()).add(r);
      }
      byConfiguration.putAll(fromCsv);
    }
    List<ResultRow> rows = byConfiguration.values().stream().flatMap(List::stream).toList();
    Path dir = out != null ? out : csvs.get(0).toAbsolutePath().getParent();
    Files.createDirectories(dir);
    String table = ResultTable.format(rows);
    if (csvs.size() > 1) {
      ResultsCsv.write(dir.resolve("results.csv"), rows);
      Files.writeString(dir.resolve("table.txt"), table);
    }
    System.out.print(table);
    for (Path p : ResultPlots.draw(rows, dir, subtitle)) {
      System.err.println("plot: wrote " + p);
    }
    return 0;
  }
}
