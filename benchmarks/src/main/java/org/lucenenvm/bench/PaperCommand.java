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
 * {@code paper}: puts the figures of a paper experiment ({@link PaperExperiments}) beside the ratios
 * measured in one or more {@code run} results CSVs, as {@link PaperReport} files. {@code
 * scripts/reproduce.sh} runs the experiment and then this.
 */
@Command(name = "paper", mixinStandardHelpOptions = true, description = "Paper figures beside measured ones (ratios): Markdown, CSV, PNG.")
final class PaperCommand implements Callable<Integer> {

  @Option(names = "--experiment", required = true, description = "spirit-table1, spirit-fig2 or chilukuri.")
  String experiment;

  @Option(names = "--csv", required = true, split = ",",
      description = "results.csv of the runs, PATH or LABEL=PATH; the CSVs of one label are merged (chilukuri labels by query threads: t1=...,t2=...).")
  List<String> csvs;

  @Option(names = "--out", required = true, description = "Output directory for paper.md, paper.csv and paper-ratios.png.")
  Path out;

  @Option(names = "--context", defaultValue = "", description = "A line about the run (corpus size, command) for the top of paper.md.")
  String context;

  @Override
  public Integer call() throws Exception {
    Map<String, List<ResultRow>> runs = new LinkedHashMap<>();
    for (String csv : csvs) {
      int eq = csv.indexOf('=');
      String label = eq < 0 ? "run" : csv.substring(0, eq);
      runs.computeIfAbsent(label, k -> new ArrayList<>()).addAll(ResultsCsv.read(Path.of(eq < 0 ? csv : csv.substring(eq + 1))));
    }
    List<PaperRatio> ratios = PaperExperiments.ratios(experiment, runs);
    Files.createDirectories(out);
    if (experiment.equals("spirit-table1")) {
      PaperReport.write(experiment, context, ratios, PaperExperiments::isTable1Chart, " (P99 rows)", out);
    } else {
      PaperReport.write(experiment, context, ratios, out);
    }
    System.out.print(Files.readString(out.resolve(PaperReport.MARKDOWN)));
    return 0;
  }
}
