package org.lucenenvm.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes luceneutil {@code .tasks} files.
 *
 * <p>Format: one task per line, {@code Category: query text # comment}; the comment is optional.
 * Blank lines and lines whose first non-blank character is {@code #} are ignored. Any other line
 * without a {@code :} is an error naming the file and line.
 */
public final class TaskFile {

  private TaskFile() {}

  /** All tasks of {@code file}, in file order. */
  public static List<Task> read(Path file) throws IOException {
    List<Task> tasks = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        tasks.add(parse(line));
      } catch (IllegalArgumentException e) {
        throw new IOException("malformed task at line " + (i + 1) + " of " + file + ": " + e.getMessage(), e);
      }
    }
    return tasks;
  }

  /** Parses one non-comment line. */
  public static Task parse(String line) {
    int colon = line.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("expected 'Category: query', got: " + line);
    }
    String rest = line.substring(colon + 1);
    int hash = rest.indexOf('#');
    String query = hash < 0 ? rest : rest.substring(0, hash);
    String comment = hash < 0 ? "" : rest.substring(hash + 1);
    return new Task(line.substring(0, colon), query, comment);
  }

  /** Writes {@code tasks}, one per line, after a {@code #} comment line {@code header}. */
  public static void write(Path file, String header, List<Task> tasks) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("# " + header);
      out.newLine();
      for (Task task : tasks) {
        out.write(task.toLine());
        out.newLine();
      }
    }
  }
}
