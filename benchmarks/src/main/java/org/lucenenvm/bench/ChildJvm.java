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
 *
 * <p>Every child also gets {@value #PRE_TOUCH} unless its options set {@code AlwaysPreTouch}
 * themselves: the heap's pages are then touched when the JVM starts instead of the first time the
 * allocator reaches them, which would otherwise happen in timed queries. In a virtual machine that
 * hands freed memory back to its host (virtio-balloon free page reporting), a first touch can cost
 * far more than a query: on the 1 M-document benchmark, right after the index build, it made the
 * first categories of a JVM about 5× slower.
 */
final class ChildJvm {

  /** Flags every child needs whatever its other options: FFM native access, Lucene's vector API. */
  static final List<String> REQUIRED_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector");

  /** Pre-touches the heap at start-up; see the class documentation. */
  static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

  private ChildJvm() {}

  /** JVM options from a space-separated text ({@code --child-jvm-opts}); null or blank = none, i.e. this JVM's own. */
  static List<String> options(String text) {
    return text == null || text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
  }

  /**
   * The command line of a child running {@code BenchCli args}; {@code jvmOptions} empty = this JVM's
   * options. {@value #PRE_TOUCH} is added unless the options mention {@code AlwaysPreTouch}.
   */
  static List<String> command(List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (jvmOptions.isEmpty()) {
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    } else {
      command.addAll(REQUIRED_OPTIONS);
      command.addAll(jvmOptions);
    }
    if (command.stream().noneMatch(option -> option.contains("AlwaysPreTouch"))) {
      command.add(PRE_TOUCH);
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
