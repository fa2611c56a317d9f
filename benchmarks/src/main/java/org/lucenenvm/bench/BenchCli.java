package org.lucenenvm.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code benchmarks.jar}: {@code generate} a synthetic corpus and tasks, build a
 * {@code realtext} corpus from documentation packages, derive {@code tasks} from a corpus, {@code run}
 * the NC and WRT benchmarks, {@code compare} a baseline against a candidate over several JVMs
 * ({@code query} is one such JVM), put measured ratios beside a {@code paper}'s, {@code plot} a
 * results CSV, time linked against copying {@code merge}s, or {@code jmh} to run the JMH harnesses.
 */
@Command(
    name = "benchmarks",
    mixinStandardHelpOptions = true,
    version = "lucene-nvm benchmarks 0.1.0",
    description = "luceneutil-compatible benchmark runner for lucene-nvm.",
    subcommands = {GenerateCommand.class, RealTextCommand.class, TasksCommand.class, RunCommand.class, CompareCommand.class, QueryCommand.class, PaperCommand.class, PlotCommand.class, MergeCommand.class, JmhCommand.class})
public final class BenchCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, for tests and embedding. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setExecutionExceptionHandler(BenchCli::reportBadValue);
    CommandLine jmh = commandLine.getSubcommands().get("jmh");
    jmh.setUnmatchedOptionsArePositionalParams(true);
    jmh.setStopAtPositional(true);
    return commandLine;
  }

  /**
   * A value that a command refuses (an {@link IllegalArgumentException}: a bad option, a corpus
   * too small, an unknown configuration) is reported as one line naming it, with exit status 1, as
   * picocli reports options it cannot parse; any other failure keeps its stack trace.
   */
  private static int reportBadValue(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) throws Exception {
    if (e instanceof IllegalArgumentException) {
      commandLine.getErr().println(commandLine.getCommandName() + ": " + e.getMessage());
      return 1;
    }
    throw e;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: generate, realtext, tasks, run, compare, query, paper, plot, merge or jmh");
  }
}
