package org.lucenenvm.bench.text;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The paragraphs of a plain-text document (a {@code README}, {@code NEWS}, a Debian {@code
 * changelog}, a {@code .txt} file): a blank line or a line of only punctuation (an underline such
 * as {@code =====}) ends a paragraph, and a list item ({@code *}, {@code -}, {@code +}, {@code o}, a changelog trailer {@code --}
 * or {@code 1.} at the start of a line, as in changelog entries) starts one.
 */
public final class PlainText {

  private static final Pattern LIST_ITEM = Pattern.compile("\\s*([*+o]|-{1,2}|\\d{1,3}[.)])\\s+\\S.*");
  private static final Pattern RULE = Pattern.compile("\\s*\\p{Punct}+\\s*");

  private PlainText() {}

  /** The paragraphs of {@code text}. */
  public static List<String> paragraphs(String text) {
    Paragraphs out = new Paragraphs();
    for (String line : text.split("\r?\n", -1)) {
      if (line.isBlank() || RULE.matcher(line).matches()) {
        out.end();
        continue;
      }
      if (LIST_ITEM.matcher(line).matches()) {
        out.end();
      }
      out.text(line);
      out.space();
    }
    return out.finish();
  }
}
