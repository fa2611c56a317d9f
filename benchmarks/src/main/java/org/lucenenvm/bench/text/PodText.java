package org.lucenenvm.bench.text;

import java.util.List;
import java.util.Map;

/**
 * The ordinary paragraphs of a Perl POD document ({@code perlpod}), formatting codes resolved:
 * {@code B<>}, {@code I<>}, {@code C<>}, {@code F<>}, {@code S<>} keep their text, {@code
 * L<text|target>} its text (or the target), {@code E<name>} the character, {@code X<>} and
 * {@code Z<>} nothing; the {@code C<< ... >>} forms are understood. Headings and {@code =item}
 * labels are paragraphs of their own; verbatim paragraphs (indented: code), {@code =begin}/{@code
 * =end} and {@code =for} blocks, and text outside POD (before the first command, after {@code =cut})
 * are dropped.
 */
public final class PodText {

  private static final Map<String, String> ESCAPES = Map.of("lt", "<", "gt", ">", "verbar", "|", "sol", "/", "quot", "\"", "amp", "&");

  private PodText() {}

  /** The paragraphs of the POD text {@code source}. */
  public static List<String> paragraphs(String source) {
    Paragraphs out = new Paragraphs();
    boolean inPod = false;
    String skipUntilEnd = null;
    for (String block : source.split("\r?\n([ \t]*\r?\n)+")) {
      if (block.isBlank()) {
        continue;
      }
      if (block.startsWith("=")) {
        int space = firstSpace(block);
        String command = block.substring(1, space);
        String rest = block.substring(space).strip();
        inPod = !command.equals("cut");
        if (skipUntilEnd != null) {
          if (command.equals("end") && rest.startsWith(skipUntilEnd)) {
            skipUntilEnd = null;
          }
          continue;
        }
        switch (command) {
          case "begin" -> skipUntilEnd = rest.isEmpty() ? "" : rest.split("\\s+")[0];
          case "head1", "head2", "head3", "head4", "item" -> {
            out.text(resolve(rest));
            out.end();
          }
          default -> {}
        }
        continue;
      }
      if (!inPod || skipUntilEnd != null || Character.isWhitespace(block.charAt(0))) {
        continue;
      }
      out.text(resolve(block));
      out.end();
    }
    return out.finish();
  }

  private static int firstSpace(String block) {
    for (int i = 0; i < block.length(); i++) {
      if (Character.isWhitespace(block.charAt(i))) {
        return i;
      }
    }
    return block.length();
  }

  /** {@code text} with its formatting codes resolved. */
  static String resolve(String text) {
    StringBuilder out = new StringBuilder(text.length());
    resolve(text, 0, text.length(), out);
    return out.toString();
  }

  /** Resolves {@code text[from, to)} into {@code out}. */
  private static void resolve(String text, int from, int to, StringBuilder out) {
    int i = from;
    while (i < to) {
      char c = text.charAt(i);
      if (c >= 'A' && c <= 'Z' && i + 1 < to && text.charAt(i + 1) == '<') {
        int open = i + 1;
        int brackets = 0;
        while (open + brackets < to && text.charAt(open + brackets) == '<') {
          brackets++;
        }
        int contentStart = open + brackets;
        int contentEnd;
        int next;
        if (brackets == 1) {
          contentEnd = matchingClose(text, contentStart, to);
          next = Math.min(contentEnd + 1, to);
        } else {
          String close = " " + ">".repeat(brackets);
          int at = text.indexOf(close, contentStart);
          contentEnd = at < 0 || at >= to ? to : at;
          next = Math.min(contentEnd + close.length(), to);
          contentStart = Math.min(contentStart + 1, contentEnd);
        }
        code(c, text, contentStart, contentEnd, out);
        i = next;
      } else {
        out.append(c);
        i++;
      }
    }
  }

  /** The index of the {@code >} closing a single-bracket code whose content starts at {@code from}. */
  private static int matchingClose(String text, int from, int to) {
    int depth = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '<' && i > from && Character.isUpperCase(text.charAt(i - 1))) {
        depth++;
      } else if (c == '>') {
        if (depth == 0) {
          return i;
        }
        depth--;
      }
    }
    return to;
  }

  private static void code(char kind, String text, int from, int to, StringBuilder out) {
    switch (kind) {
      case 'X', 'Z' -> {}
      case 'E' -> {
        String name = text.substring(from, to);
        String value = ESCAPES.get(name);
        if (value == null && !name.isEmpty() && name.chars().allMatch(Character::isDigit) && name.length() < 8) {
          value = new String(Character.toChars(Integer.parseInt(name)));
        }
        out.append(value == null ? "" : value);
      }
      case 'L' -> {
        int bar = text.indexOf('|', from);
        if (bar >= 0 && bar < to) {
          resolve(text, from, bar, out);
        } else {
          StringBuilder target = new StringBuilder();
          resolve(text, from, to, target);
          out.append(target.toString().replace('/', ' ').replace("\"", ""));
        }
      }
      default -> resolve(text, from, to, out);
    }
  }
}
