package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestTaskFile {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void parsesLuceneutilSyntaxSkippingCommentsAndBlankLines() throws IOException {
    Path file = temp.newFile("x.tasks").toPath();
    Files.writeString(file, "# a comment\n\nHighTerm: states # freq=1185528\n"
        + "  AndHighHigh: +united +states # freq=1185528 freq=900000\nOrHighLow: a b\nFieldQuery: title:foo\n");
    List<Task> tasks = TaskFile.read(file);
    assertEquals(List.of(
        new Task("HighTerm", "states", "freq=1185528"),
        new Task("AndHighHigh", "+united +states", "freq=1185528 freq=900000"),
        new Task("OrHighLow", "a b", ""),
        new Task("FieldQuery", "title:foo", "")), tasks);
  }

  @Test
  public void writeThenReadRoundTrips() throws IOException {
    Path file = temp.newFile("y.tasks").toPath();
    List<Task> tasks = List.of(new Task("TermLow", "kalo", "freq=3"), new Task("OrHighHigh", "ba be", ""));
    TaskFile.write(file, "header", tasks);
    assertEquals(tasks, TaskFile.read(file));
  }

  @Test
  public void lineWithoutCategoryIsAnErrorNamingTheLine() throws IOException {
    Path file = temp.newFile("bad.tasks").toPath();
    Files.writeString(file, "TermLow: a\nno category here\n");
    IOException e = assertThrows(IOException.class, () -> TaskFile.read(file));
    assertTrue(e.getMessage(), e.getMessage().contains("line 2"));
  }
}
