package org.lucenenvm.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code benchmarks.jar}: {@code generate} a synthetic corpus and tasks, {@code run}
 * the NC and WRT benchmarks, {@code compare} a baseline against a candidate over several JVMs
 * ({@code query} is one such JVM), put measured ratios beside a {@code paper}'s, {@code plot} a
 * results CSV, or {@code jmh} to run the JMH harnesses.
 */
@Command(
    name = "benchmarks",
    mixinStandardHelpOptions = true,
    version = "lucene-nvm benchmarks 0.1.0",
    description = "luceneutil-compatible benchmark runner for lucene-nvm.",
    subcommands = {GenerateCommand.class, RunCommand.class, CompareCommand.class, QueryCommand.class, PaperCommand.class, PlotCommand.class, JmhCommand.class})
public final class BenchCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, for tests and embedding. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new BenchCli());
    CommandLine jmh = commandLine.getSubcommands().get("jmh");
    jmh.setUnmatchedOptionsArePositionalParams(true);
    jmh.setStopAtPositional(true);
    return commandLine;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: generate, run, compare, query, paper, plot or jmh");
  }
}
