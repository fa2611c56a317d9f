package org.lucenenvm.bench.text;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The converters of the documentation formats to paragraphs, the sentence splitter and which files are read as what. */
public class TestDocText {

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void manPagesKeepTheirRunningTextWithEscapesResolved() {
    String page = String.join("\n",
        ".\\\" Copyright line, a comment",
        ".TH OPEN 2 2023-02-05 \"Linux man-pages 6.03\"",
        ".SH NAME",
        "open, creat \\- open and possibly create a file",
        ".SH SYNOPSIS",
        ".nf",
        ".B #include <fcntl.h>",
        ".fi",
        ".BI \"int open(const char *\" pathname \", int \" flags );",
        ".SH DESCRIPTION",
        "The",
        ".BR open ()",
        "system call opens the file specified by",
        ".IR pathname .",
        "It is \\fIvery\\fP common\\(emand \\(lqquoted\\(rq, caf\\[u00E9] \\*(lqfine\\*(rq.",
        ".PP",
        "A second paragraph\\c",
        "joined.  \\\" a trailing comment",
        ".EX",
        "fd = open(\"x\", O_RDONLY);",
        ".EE",
        ".if n \\{\\",
        "text only for nroff",
        ".\\}",
        ".TP",
        ".B O_APPEND",
        "The file is opened in append mode.",
        ".de XX",
        "macro body",
        "..",
        "Last words\\s-1small\\s0 and \\h'1i'moved \\N'65'.");
    assertEquals(List.of(
        "open, creat - open and possibly create a file",
        "The open() system call opens the file specified by pathname. It is very common\u2014and \u201Cquoted\u201D, caf\u00E9 \u201Cfine\u201D.",
        "A second paragraphjoined.",
        "O_APPEND The file is opened in append mode. Last wordssmall and moved A."), ManPageText.paragraphs(page));
  }

  @Test
  public void redirectsAndMdocPagesGiveNothing() {
    assertEquals(List.of(), ManPageText.paragraphs(".so man2/open.2\n"));
    assertEquals(List.of(), ManPageText.paragraphs(".Dd March 1, 2020\n.Dt LS 1\n.Sh NAME\n.Nm ls\nlist directory contents\n"));
  }

  @Test
  public void macroArgumentsHonourQuotes() {
    assertEquals(List.of("int open(const char *", "pathname", ", int \"x\" ", "y"), ManPageText.arguments(".BI \"int open(const char *\" pathname \", int \"\"x\"\" \" y"));
    assertEquals(List.of("a\\ b", "c"), ManPageText.arguments(".B a\\ b c \\\" comment"));
  }

  @Test
  public void htmlBlocksAreParagraphsAndCodeIsDropped() {
    String html = "<!DOCTYPE html><html><head><title>T</title><style>p{x:1}</style></head><body>"
        + "<h1>Heading &amp; more</h1><p>The <code>os.open()</code> call <a href=\"#x\" title=\"a > b\">opens</a> a file&nbsp;&ndash; see&#160;<em>below</em>&#x2e;</p>"
        + "<!-- <p>commented out</p> --><pre>code &lt;here&gt;</pre><div class=\"x\">Two<br>lines &unknown; &amp</div>"
        + "<script>var p = '<p>';</script><ul><li>one</li><li>two</li></ul><PRE>UPPER CASE CODE</PRE>after</body></html>";
    assertEquals(List.of("Heading & more", "The os.open() call opens a file \u2013 see below.", "Two", "lines &unknown; &amp", "one", "two", "after"),
        HtmlText.paragraphs(html));
  }

  @Test
  public void podKeepsOrdinaryParagraphsWithCodesResolved() {
    String pod = String.join("\n",
        "#!/usr/bin/perl",
        "print 'not pod';",
        "",
        "=head1 NAME",
        "",
        "perlfoo - B<bold> and I<italic>",
        "",
        "    my $verbatim = 1;",
        "",
        "Use C<< $a <=> $b >> or C<split>, see L<perlfunc/open> and L<the docs|perldoc>.",
        "It costs E<lt>1E<gt> S<non breaking>X<index entry> Z<>today E<233>.",
        "",
        "=begin html",
        "",
        "<p>html only</p>",
        "",
        "=end html",
        "",
        "=item * an item",
        "",
        "=cut",
        "",
        "code after cut");
    assertEquals(List.of("NAME", "perlfoo - bold and italic",
        "Use $a <=> $b or split, see perlfunc open and the docs. It costs <1> non breaking today \u00E9.", "* an item"),
        PodText.paragraphs(pod));
  }

  @Test
  public void plainTextSplitsAtBlankLinesRulesAndListItems() {
    String text = String.join("\n",
        "Title",
        "=====",
        "First paragraph",
        "continues here.",
        "",
        "python3.11 (3.11.2-6) unstable; urgency=medium",
        "  * Fix the build",
        "    with gcc 12.",
        "  * Second entry.",
        " -- Maintainer <m@example.org>  Mon, 05 Jun 2023 12:00:00 +0200");
    assertEquals(List.of("Title", "First paragraph continues here.", "python3.11 (3.11.2-6) unstable; urgency=medium",
        "* Fix the build with gcc 12.", "* Second entry.", "-- Maintainer <m@example.org> Mon, 05 Jun 2023 12:00:00 +0200"),
        PlainText.paragraphs(text));
  }

  @Test
  public void sentencesEndAtStopsBeforeACapitalButNotAfterAbbreviations() {
    assertEquals(List.of("This opens a file, e.g. Foo or bar.", "Then it (usually) closes it!", "\"Quoted start?\"", "Maybe.", "3 more."),
        Sentences.split("This opens a file, e.g. Foo or bar.  Then it (usually) closes it! \"Quoted start?\" Maybe. 3 more."));
    assertEquals(List.of("version 3.11.2 is out. and lower case continues"), Sentences.split("version 3.11.2 is out. and lower case continues"));
  }

  @Test
  public void filesAreReadByPathAndName() throws IOException {
    Path root = temp.newFolder("pkg").toPath();
    Path doc = Files.createDirectories(root.resolve("usr/share/doc/x"));
    Files.writeString(doc.resolve("guide.html"), "<p>x</p>");
    Files.writeString(doc.resolve("guide.txt"), "x");
    Files.writeString(doc.resolve("notes.txt"), "x");
    assertEquals(DocFormat.MAN, DocFormat.of(root, "usr/share/man/man2/open.2.gz"));
    assertEquals(DocFormat.MAN, DocFormat.of(root, "usr/share/man/man3/Foo::Bar.3perl.gz"));
    assertNull(DocFormat.of(root, "usr/share/man/de/man1/ls.1.gz"));
    assertEquals(DocFormat.HTML, DocFormat.of(doc.resolve("guide.html"), "usr/share/doc/x/guide.html"));
    assertNull("a .txt beside its .html", DocFormat.of(doc.resolve("guide.txt"), "usr/share/doc/x/guide.txt"));
    assertEquals(DocFormat.PLAIN, DocFormat.of(doc.resolve("notes.txt"), "usr/share/doc/x/notes.txt"));
    assertEquals(DocFormat.PLAIN, DocFormat.of(root, "usr/share/doc/x/changelog.Debian.gz"));
    assertEquals(DocFormat.PLAIN, DocFormat.of(root, "usr/share/doc/x/README"));
    assertEquals(DocFormat.POD, DocFormat.of(root, "usr/share/perl/5.36.0/pod/perlfunc.pod"));
    assertNull(DocFormat.of(root, "usr/share/doc/x/html/_sources/index.rst.txt"));
    assertNull(DocFormat.of(root, "usr/share/doc/x/Documentation/translations/zh_CN/index.html"));
    assertNull(DocFormat.of(root, "usr/share/doc/x/copyright"));
    assertNull(DocFormat.of(root, "usr/share/doc/x/script.js"));
  }
}
