package org.lucenenvm.bench.text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The documentation formats a Debian package ships that {@code realtext} reads, each with its
 * converter to paragraphs, and which files are read as which ({@link #of}).
 */
public enum DocFormat {
  /** A manual page in man(7) macros under {@code usr/share/man/man<section>/} ({@link ManPageText}). */
  MAN(ManPageText::paragraphs),
  /** An HTML page ({@link HtmlText}). */
  HTML(HtmlText::paragraphs),
  /** Perl's POD ({@link PodText}). */
  POD(PodText::paragraphs),
  /** Plain text: {@code README*}, {@code NEWS*}, {@code changelog*}, and {@code .txt} files without an HTML twin ({@link PlainText}). */
  PLAIN(PlainText::paragraphs);

  /** Directories of generated sources, assets, example code and translations (the corpus is English), never read. */
  private static final Set<String> SKIPPED_DIRECTORIES = Set.of("_sources", "_static", "_images", "examples", "translations");
  private static final Pattern MAN_PAGE = Pattern.compile("usr/share/man/man[1-9][^/]*/[^/]+\\.[1-9][^/.]*");
  private static final Pattern PLAIN_NAME = Pattern.compile("(README|NEWS|changelog)([.-][^/]*)?", Pattern.CASE_INSENSITIVE);

  private final Function<String, List<String>> converter;

  DocFormat(Function<String, List<String>> converter) {
    this.converter = converter;
  }

  /** The paragraphs of {@code text}, a document in this format. */
  public List<String> paragraphs(String text) {
    return converter.apply(text);
  }

  /**
   * The format {@code file} is read as, or {@code null} if it is not read. {@code relative} is its
   * path inside the package's tree ({@code usr/share/...}, '/'-separated); a trailing {@code .gz}
   * is ignored. A {@code .txt} file with an {@code .html} file of the same name beside it is not
   * read (the same text twice).
   */
  public static DocFormat of(Path file, String relative) {
    String path = relative.endsWith(".gz") ? relative.substring(0, relative.length() - 3) : relative;
    for (String part : path.split("/")) {
      if (SKIPPED_DIRECTORIES.contains(part)) {
        return null;
      }
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    String lower = name.toLowerCase(Locale.ROOT);
    if (MAN_PAGE.matcher(path).matches()) {
      return MAN;
    }
    if (lower.endsWith(".html") || lower.endsWith(".htm")) {
      return HTML;
    }
    if (lower.endsWith(".pod")) {
      return POD;
    }
    if (lower.endsWith(".txt")) {
      String stem = name.substring(0, name.length() - 4);
      return Files.exists(file.resolveSibling(stem + ".html")) ? null : PLAIN;
    }
    return PLAIN_NAME.matcher(name).matches() ? PLAIN : null;
  }
}
