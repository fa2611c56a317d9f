package org.lucenenvm.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code plot}: prints the table and draws the PNG charts of a results CSV. */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Print the table and draw PNG charts from a results CSV.")
final class PlotCommand implements Callable<Integer> {

  @Option(names = "--csv", required = true, description = "Results CSV written by 'run'.")
  Path csv;

  @Option(names = "--out", description = "Directory for the PNG files (default: the CSV's directory).")
  Path out;

  @Option(names = "--subtitle", defaultValue = "", description = "Text added to every chart title.")
  String subtitle;

  @Override
  public Integer call() throws Exception {
    var rows = ResultsCsv.read(csv);
    Path dir = out != null ? out : csv.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    System.out.print(ResultTable.format(rows));
    for (Path p : ResultPlots.draw(rows, dir, subtitle)) {
      System.err.println("plot: wrote " + p);
    }
    return 0;
  }
}
