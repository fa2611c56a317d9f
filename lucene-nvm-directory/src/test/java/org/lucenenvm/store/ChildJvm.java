package org.lucenenvm.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helper: runs a main class of the test class path in a new JVM and reads its stdout. */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader stdout;

  public ChildJvm(Class<?> mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--add-modules=jdk.incubator.vector");
    command.add("-Xmx512m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** The next line the child printed, or null at its end. */
  public String readLine() throws IOException {
    return stdout.readLine();
  }

  /** Sends SIGKILL and waits for the process to end. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  public int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  @Override
  public void close() throws Exception {
    kill();
    stdout.close();
  }
}
