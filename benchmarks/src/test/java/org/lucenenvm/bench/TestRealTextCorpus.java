package org.lucenenvm.bench;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.bench.text.DocFormat;

/** The real-text corpus from unpacked packages: what is read, how it is cut into short documents, deduplicated, shuffled and written. */
public class TestRealTextCorpus {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static final String LONG_PARAGRAPH = "The first sentence of a long paragraph has exactly ten words in it. "
      + "The second sentence is a bit longer and talks about the way files are opened and closed again. "
      + "Tiny one. "
      + "The last sentence is far too long to stay a document of its own, because it goes on and on, "
      + "word after word after word after word after word after word after word after word after word after word, "
      + "word after word after word after word after word after word after word after word after word after word, "
      + "never reaching its end before the limit of sixty words that the corpus allows per document has long been passed.";

  private Path source() throws IOException {
    Path source = temp.newFolder("src").toPath();
    Path man = Files.createDirectories(source.resolve("pkg-a/usr/share/man/man1"));
    gzip(man.resolve("tool.1.gz"), ".TH TOOL 1\n.SH NAME\ntool \\- does a thing with the files you give it\n.SH DESCRIPTION\n"
        + ".B tool\nreads every file named on its command line and prints it.\n.PP\nShort.\n");
    Path doc = Files.createDirectories(source.resolve("pkg-a/usr/share/doc/pkg-a"));
    Files.writeString(doc.resolve("guide.html"), "<html><body><p>" + LONG_PARAGRAPH + "</p>"
        + "<p>Tool reads every file named on its command line and prints it.</p><p>Too short here.</p></body></html>");
    Files.createSymbolicLink(doc.resolve("linked.html"), doc.resolve("guide.html"));
    Path sources = Files.createDirectories(doc.resolve("_sources"));
    Files.writeString(sources.resolve("guide.rst.txt"), "This source text must never be read by the corpus builder.");
    Path b = Files.createDirectories(source.resolve("pkg-b/usr/share/doc/pkg-b"));
    gzip(b.resolve("changelog.Debian.gz"), "pkg-b (1.0-1) unstable; urgency=medium\n\n  * Fix the crash when the input file is empty.\n"
        + "  * Document the new option in the manual page.\n\n -- Some One <one@example.org>  Mon, 05 Jun 2023 12:00:00 +0200\n");
    return source;
  }

  private static void gzip(Path file, String text) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static List<LineDoc> read(Path corpus) throws IOException {
    List<LineDoc> docs = new ArrayList<>();
    try (LineDocReader reader = LineDocReader.open(corpus)) {
      for (LineDoc doc = reader.next(); doc != null; doc = reader.next()) {
        docs.add(doc);
      }
    }
    return docs;
  }

  @Test
  public void shortDocumentsAreCutDeduplicatedAndShuffledDeterministically() throws IOException {
    Path source = source();
    Path a = temp.getRoot().toPath().resolve("a.txt");
    Path b = temp.getRoot().toPath().resolve("b.txt");
    Path c = temp.getRoot().toPath().resolve("c.txt");
    RealTextCorpus.Summary summary;
    try (Analyzer analyzer = new StandardAnalyzer()) {
      summary = new RealTextCorpus(5, 60, 1).build(source, a, analyzer);
      assertEquals(summary, new RealTextCorpus(5, 60, 1).build(source, b, analyzer));
      new RealTextCorpus(5, 60, 2).build(source, c, analyzer);
    }
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    List<LineDoc> docs = read(a);
    List<String> bodies = docs.stream().map(LineDoc::body).sorted().toList();
    assertEquals(List.of(
        "* Document the new option in the manual page.",
        "* Fix the crash when the input file is empty.",
        "-- Some One <one@example.org> Mon, 05 Jun 2023 12:00:00 +0200",
        "The first sentence of a long paragraph has exactly ten words in it.",
        "The second sentence is a bit longer and talks about the way files are opened and closed again.",
        "Tool reads every file named on its command line and prints it.",
        "pkg-b (1.0-1) unstable; urgency=medium",
        "tool - does a thing with the files you give it"), bodies);
    assertEquals("another seed, another order of the same documents", bodies, read(c).stream().map(LineDoc::body).sorted().toList());
    assertFalse(docs.equals(read(c)));
    Set<String> titles = new HashSet<>();
    for (int i = 0; i < docs.size(); i++) {
      assertEquals(LineDoc.date(java.time.Instant.parse("2001-01-15T00:00:00Z").toEpochMilli() + 1000L * i), docs.get(i).date());
      titles.add(docs.get(i).title());
    }
    assertEquals(Set.of("pkg-a tool.1", "pkg-a guide", "pkg-b changelog.Debian"), titles);
    assertEquals(8, summary.documents());
    assertEquals("the man page repeats guide.html's 'Tool reads every file ...' (read first: doc/ before man/)", 1, summary.duplicates());
    assertEquals("the long paragraph's last sentence", 1, summary.tooLong());
    assertEquals("texts of fewer than 5 words: 'Short.', 'Tiny one.', 'Too short here.'", 3, summary.tooShort());
    assertEquals(java.util.Map.of(DocFormat.MAN, 1L, DocFormat.HTML, 1L, DocFormat.PLAIN, 1L), summary.filesPerFormat());
    assertEquals(new RealTextCorpus.PackageCount(2, 4), summary.perPackage().get("pkg-a"));
    assertEquals(new RealTextCorpus.PackageCount(1, 4), summary.perPackage().get("pkg-b"));
    try (Analyzer analyzer = new StandardAnalyzer()) {
      BodyTerms terms = new BodyTerms(analyzer);
      long words = 0;
      Set<String> distinct = new HashSet<>();
      for (LineDoc doc : docs) {
        List<String> t = terms.of(doc.body());
        assertTrue(doc.body(), t.size() >= 5 && t.size() <= 60);
        words += t.size();
        distinct.addAll(t);
      }
      assertEquals(words, summary.words());
      assertEquals(distinct.size(), summary.distinctTerms());
    }
    assertTrue(summary.format(), summary.format().startsWith("documents: 8 of 5..60 words"));
  }

  @Test
  public void aSourceWithoutPackagesIsRefused() throws IOException {
    Path empty = temp.newFolder("empty").toPath();
    try (Analyzer analyzer = new StandardAnalyzer()) {
      IllegalArgumentException e = org.junit.Assert.assertThrows(IllegalArgumentException.class,
          () -> new RealTextCorpus(5, 60, 1).build(empty, empty.resolve("c.txt"), analyzer));
      assertTrue(e.getMessage(), e.getMessage().contains(empty.toString()));
    }
    org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> new RealTextCorpus(10, 5, 1));
  }
}
