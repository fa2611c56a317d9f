package org.lucenenvm.realtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Linux nice values of this JVM and of its threads, read from {@code /proc} (tests only). */
public final class ThreadNices {
  private ThreadNices() {}

  /** The names of a partition's pipeline threads that lower their priority. */
  public static Set<String> stageThreads(int partition) {
    return Set.of("rt-p" + partition + "-indexer", "rt-p" + partition + "-merger");
  }

  /**
   * Waits (up to 10 s) until every thread named in {@code names} runs at nice {@code nice} (a stage
   * lowers its priority when its thread starts, which may be after the engine opened) and returns
   * the nice values seen per name.
   */
  public static Map<String, Set<Integer>> await(Set<String> names, int nice) throws Exception {
    Map<String, Set<Integer>> seen = Map.of();
    for (int attempt = 0; attempt < 200 && !allAt(seen, names, nice); attempt++) {
      Thread.sleep(50);
      seen = of(names);
    }
    return seen;
  }

  /** Whether {@code seen} has every name of {@code names} at {@code nice}. */
  public static boolean allAt(Map<String, Set<Integer>> seen, Set<String> names, int nice) {
    return names.stream().allMatch(n -> seen.getOrDefault(n, Set.of()).contains(nice));
  }

  /** Nice values of this JVM's threads named in {@code names}, per name. */
  public static Map<String, Set<Integer>> of(Set<String> names) throws IOException {
    Map<String, Set<Integer>> nices = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (names.contains(name)) {
          nices.computeIfAbsent(name, n -> new HashSet<>()).add(niceOf(stat));
        }
      }
    }
    return nices;
  }

  /** This process's nice value. */
  public static int processNice() throws IOException {
    return niceOf(Files.readString(Path.of("/proc/self/stat")));
  }

  /** Field 19 of a /proc stat line (the fields after the command name start at field 3). */
  private static int niceOf(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[19 - 3]);
  }
}
