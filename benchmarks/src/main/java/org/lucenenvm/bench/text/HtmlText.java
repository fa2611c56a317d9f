package org.lucenenvm.bench.text;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The text of an HTML page as paragraphs: block elements ({@code p}, {@code li}, {@code dd}, {@code
 * td}, headings, ...) end a paragraph, inline ones ({@code a}, {@code code}, {@code em}, {@code
 * span}, ...) do not; the content of {@code head}, {@code script}, {@code style}, {@code pre}
 * (code), {@code svg} and {@code math} is dropped, and so are comments; character references are
 * decoded. A hand-written scanner, not a full HTML parser: enough for generated documentation.
 */
public final class HtmlText {

  private static final Set<String> INLINE = Set.of("a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn",
      "em", "font", "i", "img", "ins", "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup",
      "time", "tt", "u", "var", "wbr");
  private static final Set<String> SKIPPED = Set.of("head", "script", "style", "pre", "svg", "math", "textarea", "template");
  private static final Map<String, String> ENTITIES = Map.ofEntries(
      Map.entry("amp", "&"), Map.entry("lt", "<"), Map.entry("gt", ">"), Map.entry("quot", "\""), Map.entry("apos", "'"),
      Map.entry("nbsp", " "), Map.entry("copy", "\u00A9"), Map.entry("reg", "\u00AE"), Map.entry("trade", "\u2122"),
      Map.entry("mdash", "\u2014"), Map.entry("ndash", "\u2013"), Map.entry("hellip", "\u2026"), Map.entry("lsquo", "\u2018"),
      Map.entry("rsquo", "\u2019"), Map.entry("ldquo", "\u201C"), Map.entry("rdquo", "\u201D"), Map.entry("laquo", "\u00AB"),
      Map.entry("raquo", "\u00BB"), Map.entry("para", "\u00B6"), Map.entry("sect", "\u00A7"), Map.entry("middot", "\u00B7"),
      Map.entry("bull", "\u2022"), Map.entry("times", "\u00D7"), Map.entry("shy", ""), Map.entry("zwj", ""), Map.entry("zwnj", ""),
      Map.entry("rarr", "\u2192"), Map.entry("larr", "\u2190"), Map.entry("le", "\u2264"), Map.entry("ge", "\u2265"), Map.entry("ne", "\u2260"),
      Map.entry("minus", "\u2212"), Map.entry("deg", "\u00B0"), Map.entry("eacute", "\u00E9"), Map.entry("uuml", "\u00FC"),
      Map.entry("ouml", "\u00F6"), Map.entry("auml", "\u00E4"), Map.entry("szlig", "\u00DF"));

  private HtmlText() {}

  /** The paragraphs of the page {@code html}. */
  public static List<String> paragraphs(String html) {
    Paragraphs out = new Paragraphs();
    int i = 0;
    while (i < html.length()) {
      int lt = html.indexOf('<', i);
      int textEnd = lt < 0 ? html.length() : lt;
      if (textEnd > i) {
        out.text(decode(html, i, textEnd));
      }
      if (lt < 0) {
        break;
      }
      if (html.startsWith("<!--", lt)) {
        int end = html.indexOf("-->", lt + 4);
        i = end < 0 ? html.length() : end + 3;
        continue;
      }
      int tagEnd = tagEnd(html, lt + 1);
      String name = tagName(html, lt + 1);
      i = tagEnd;
      if (name.isEmpty()) {
        continue;
      }
      boolean closing = html.charAt(lt + 1) == '/';
      if (!closing && SKIPPED.contains(name) && !html.startsWith("/>", tagEnd - 2)) {
        int close = closingTag(html, name, tagEnd);
        i = close < 0 ? html.length() : tagEnd(html, close + 1);
        out.end();
      } else if (!INLINE.contains(name)) {
        out.end();
      }
    }
    return out.finish();
  }

  /** Where {@code </name} (any case) starts at or after {@code from}, or -1. */
  private static int closingTag(String html, String name, int from) {
    for (int i = html.indexOf("</", from); i >= 0; i = html.indexOf("</", i + 2)) {
      if (html.regionMatches(true, i + 2, name, 0, name.length())) {
        return i;
      }
    }
    return -1;
  }

  /** The lower-case element name of the tag whose text starts at {@code from} (after {@code <}); empty for {@code <!...>}, {@code <?...>}. */
  private static String tagName(String html, int from) {
    int i = from < html.length() && html.charAt(from) == '/' ? from + 1 : from;
    int start = i;
    while (i < html.length() && Character.isLetterOrDigit(html.charAt(i))) {
      i++;
    }
    return html.substring(start, i).toLowerCase(Locale.ROOT);
  }

  /** The index after the {@code >} that closes the tag starting at {@code from}, quotes respected. */
  private static int tagEnd(String html, int from) {
    char quote = 0;
    for (int i = from; i < html.length(); i++) {
      char c = html.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        return i + 1;
      }
    }
    return html.length();
  }

  /** {@code html[from, to)} with character references decoded; an unknown one is kept as written. */
  static String decode(String html, int from, int to) {
    StringBuilder out = new StringBuilder(to - from);
    int i = from;
    while (i < to) {
      char c = html.charAt(i);
      int semicolon = c == '&' ? html.indexOf(';', i) : -1;
      if (semicolon < 0 || semicolon >= to || semicolon - i > 10) {
        out.append(c);
        i++;
        continue;
      }
      String name = html.substring(i + 1, semicolon);
      String value = reference(name);
      if (value == null) {
        out.append(c);
        i++;
      } else {
        out.append(value);
        i = semicolon + 1;
      }
    }
    return out.toString();
  }

  private static String reference(String name) {
    if (name.startsWith("#")) {
      try {
        int code = name.startsWith("#x") || name.startsWith("#X") ? Integer.parseInt(name.substring(2), 16) : Integer.parseInt(name.substring(1));
        return Character.isValidCodePoint(code) ? new String(Character.toChars(code)) : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return ENTITIES.get(name);
  }
}
