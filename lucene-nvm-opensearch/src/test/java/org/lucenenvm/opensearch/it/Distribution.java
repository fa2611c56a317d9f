package org.lucenenvm.opensearch.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OpenSearch distribution the tests run: one home with the plugin installed and one without
 * (a hard-linked copy), prepared once per JVM under {@code opensearch.work}. When the tests run
 * as root (OpenSearch refuses to), nodes run as the system user {@value #USER}, created if missing.
 */
final class Distribution {
  static final String USER = "opensearch";
  private static Distribution instance;

  final Path javaHome;
  final Path work;
  final Path withPlugin;
  final Path withoutPlugin;
  final String heap;
  final boolean runAsUser;

  private Distribution(Path dist, Path pluginZip, Path work, Path javaHome, String heap)
      throws IOException {
    this.javaHome = javaHome;
    this.work = work;
    this.heap = heap;
    this.runAsUser = "root".equals(System.getProperty("user.name"));
    this.withPlugin = work.resolve("home-with-plugin");
    this.withoutPlugin = work.resolve("home-without-plugin");
    Files.createDirectories(work);
    if (runAsUser) {
      run(List.of("sh", "-c", "id -u " + USER + " >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin " + USER));
    }
    run(List.of("rm", "-rf", withPlugin.toString(), withoutPlugin.toString()));
    run(List.of("cp", "-al", dist.toString(), withoutPlugin.toString()));
    run(List.of("cp", "-a", dist.toString(), withPlugin.toString()));
    run(
        List.of(withPlugin.resolve("bin/opensearch-plugin").toString(), "install", "--batch", pluginZip.toUri().toString()));
  }

  /** The distribution named by the system properties the Maven profile sets. */
  static synchronized Distribution get() throws IOException {
    if (instance == null) {
      instance =
          new Distribution(
              Path.of(required("opensearch.home")),
              Path.of(required("opensearch.plugin.zip")),
              Path.of(required("opensearch.work")),
              Path.of(System.getProperty("opensearch.java.home", System.getProperty("java.home"))),
              System.getProperty("opensearch.heap", "512m"));
    }
    return instance;
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException(
          "system property " + property + " is not set; run the tests with: mvn -Popensearch-it verify");
    }
    return value;
  }

  /** Gives the node user a directory tree it writes to. */
  void handOver(Path dir) throws IOException {
    if (runAsUser) {
      run(List.of("chown", "-R", USER + ":", dir.toString()));
    }
  }

  /** The command prefix that runs a program as the node user (empty when not root). */
  List<String> asNodeUser() {
    List<String> prefix = new ArrayList<>();
    if (runAsUser) {
      prefix.addAll(List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--"));
    }
    return prefix;
  }

  void run(List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("OPENSEARCH_JAVA_HOME", javaHome.toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    try {
      if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IOException("command failed: " + command + "\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + command, e);
    }
  }
}
