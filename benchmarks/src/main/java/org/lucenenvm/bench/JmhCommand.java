package org.lucenenvm.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jmh [JMH options]}: hands the arguments to JMH's own command line ({@code org.openjdk.jmh.Main}),
 * which finds the benchmarks compiled into this jar (e.g. {@code jmh PostingsBenchmark -f 1}).
 */
@Command(name = "jmh", mixinStandardHelpOptions = false, description = "Run the JMH harnesses; arguments go to JMH (try: jmh -h).")
final class JmhCommand implements Callable<Integer> {

  @Parameters(description = "JMH arguments.")
  String[] args = new String[0];

  @Override
  public Integer call() throws Exception {
    org.openjdk.jmh.Main.main(args);
    return 0;
  }
}
