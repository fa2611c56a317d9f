package org.lucenenvm.opensearch.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One OpenSearch node on 127.0.0.1, run from the {@link Distribution} as a child process with its
 * own config, data, log and snapshot folders under the work directory. Stopping sends SIGTERM
 * (a clean shutdown); the folders stay, so a node started again finds its data.
 */
final class Node implements AutoCloseable {
  private static final long START_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(3);

  final String name;
  final int httpPort;
  final int transportPort;
  final Rest rest;
  final Path dir;
  private final Distribution dist;
  private final Path home;
  private final List<String> settings;
  private Process process;

  /**
   * @param settings extra {@code key=value} node settings (discovery, roles)
   */
  Node(Distribution dist, String name, boolean withPlugin, List<String> settings) throws IOException {
    this.dist = dist;
    this.name = name;
    this.home = withPlugin ? dist.withPlugin : dist.withoutPlugin;
    this.httpPort = freePort();
    this.transportPort = freePort();
    this.rest = new Rest(httpPort);
    this.settings = new ArrayList<>(settings);
    this.dir = dist.work.resolve(name);
    dist.run(List.of("rm", "-rf", dir.toString()));
    Files.createDirectories(dir.resolve("data"));
    Files.createDirectories(dir.resolve("logs"));
    Files.createDirectories(dir.resolve("repo"));
    dist.run(List.of("cp", "-a", home.resolve("config").toString(), dir.resolve("config").toString()));
    Path jvmOptions = dir.resolve("config/jvm.options");
    Files.writeString(
        jvmOptions,
        Files.readString(jvmOptions)
            .replace("file=logs/gc.log", "file=" + dir.resolve("logs/gc.log"))
            .replace("HeapDumpPath=data", "HeapDumpPath=" + dir.resolve("data"))
            .replace("ErrorFile=logs/", "ErrorFile=" + dir.resolve("logs") + "/"));
    dist.handOver(dir);
  }

  /** Adds {@code key=value} node settings for the next {@link #start} (e.g. other nodes' ports). */
  void addSettings(List<String> more) {
    settings.addAll(more);
  }

  /** Starts the node and waits until its HTTP port answers. */
  void start() throws IOException {
    List<String> command = new ArrayList<>(dist.asNodeUser());
    command.add(home.resolve("bin/opensearch").toString());
    List<String> all = new ArrayList<>(List.of(
        "node.name=" + name,
        "cluster.name=lucene-nvm-it",
        "path.data=" + dir.resolve("data"),
        "path.logs=" + dir.resolve("logs"),
        "path.repo=" + dir.resolve("repo"),
        "network.host=127.0.0.1",
        "http.port=" + httpPort,
        "transport.port=" + transportPort,
        "cluster.routing.allocation.disk.threshold_enabled=false"));
    all.addAll(settings);
    for (String setting : all) {
      command.add("-E");
      command.add(setting);
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()));
    builder.environment().put("OPENSEARCH_JAVA_HOME", dist.javaHome.toString());
    builder.environment().put("OPENSEARCH_PATH_CONF", dir.resolve("config").toString());
    builder.environment().put("OPENSEARCH_JAVA_OPTS", "-Xms" + dist.heap + " -Xmx" + dist.heap);
    process = builder.start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (!rest.isUp()) {
      if (!process.isAlive()) {
        throw new IllegalStateException("node " + name + " exited with " + process.exitValue() + ":\n" + logTail());
      }
      if (System.currentTimeMillis() > deadline) {
        stop();
        throw new IllegalStateException("node " + name + " did not answer in time:\n" + logTail());
      }
      sleep(500);
    }
  }

  /** Stops the node cleanly (SIGTERM), waiting for it to exit. */
  void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  /**
   * Kills the node's JVM with SIGKILL, as {@code kill -9} does: no shutdown hook runs and nothing
   * is flushed. Waits for it to exit; the folders stay for {@link #start}.
   */
  void kill() {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    process = null;
  }

  @Override
  public void close() {
    stop();
  }

  /** The end of the node's main log, for failure messages. */
  String logTail() {
    try {
      Path log = dir.resolve("logs/lucene-nvm-it.log");
      Path file = Files.exists(log) ? log : dir.resolve("stdout.log");
      List<String> lines = Files.readAllLines(file);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
