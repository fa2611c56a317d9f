package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one {@link BenchCli} subcommand in a new JVM of the same Java installation and class path
 * (the shaded jar, or the test class path), its stdout and stderr in {@code stdout.log} and {@code
 * stderr.log} of its directory, and waits for it. Without explicit options the child gets this JVM's
 * own options (heap, native access, incubator modules).
 */
final class ChildJvm {

  /** Flags every child needs whatever its other options: FFM native access, Lucene's vector API. */
  static final List<String> REQUIRED_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector");

  private ChildJvm() {}

  /** JVM options from a space-separated text ({@code --child-jvm-opts}); null or blank = none, i.e. this JVM's own. */
  static List<String> options(String text) {
    return text == null || text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
  }

  /** The command line of a child running {@code BenchCli args}; {@code jvmOptions} empty = this JVM's options. */
  static List<String> command(List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (jvmOptions.isEmpty()) {
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    } else {
      command.addAll(REQUIRED_OPTIONS);
      command.addAll(jvmOptions);
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(BenchCli.class.getName());
    command.addAll(args);
    return command;
  }

  /**
   * Runs {@code command} with its output in {@code dir} and waits.
   *
   * @throws IOException if it cannot start or exits with a non-zero status (the message has the end
   *     of its stderr)
   */
  static void run(List<String> command, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.write(dir.resolve("command.txt"), List.of(String.join(" ", command)), StandardCharsets.UTF_8);
    Path stderr = dir.resolve("stderr.log");
    Process process = new ProcessBuilder(command)
        .redirectOutput(dir.resolve("stdout.log").toFile())
        .redirectError(stderr.toFile())
        .start();
    int status;
    try {
      status = process.waitFor();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the JVM in " + dir, e);
    }
    if (status != 0) {
      List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
      throw new IOException("the JVM in " + dir + " exited with status " + status + "; end of " + stderr + ":\n" + tail);
    }
  }
}
