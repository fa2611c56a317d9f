package org.lucenenvm.bench.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The running text of a manual page in the {@code man(7)} macros (what the Linux man-pages project
 * and most Debian packages write), as paragraphs; no formatter is run, so the result does not
 * depend on the host's groff.
 *
 * <p>Kept: text lines, the text arguments of the font macros ({@code .B}, {@code .I}, {@code .BR},
 * ...), with troff escapes resolved (fonts and sizes dropped, special characters such as {@code
 * \(em} or {@code \[u00E9]} as the character). Dropped: headings, the {@code SYNOPSIS} section,
 * no-fill blocks ({@code .nf}/{@code .fi}, {@code .EX}/{@code .EE}: code), tables, equations,
 * pictures, macro definitions, conditionals and comments. Paragraph macros ({@code .PP}, {@code
 * .TP}, {@code .IP}, {@code .SH}, {@code .br}, {@code .sp}, ...) end a paragraph. A page that only
 * redirects to another ({@code .so}) or is written in BSD {@code mdoc(7)} gives no paragraph.
 */
public final class ManPageText {

  /** Macros whose arguments are text, joined by spaces. */
  private static final Set<String> FONT = Set.of("B", "I", "SM", "SB");
  /** Macros whose arguments alternate fonts and are joined without spaces. */
  private static final Set<String> ALTERNATING = Set.of("BR", "BI", "IB", "IR", "RB", "RI");
  /** Macros that end a paragraph. */
  private static final Set<String> BREAKS =
      Set.of("SH", "SS", "PP", "P", "LP", "TP", "TQ", "IP", "HP", "sp", "br", "RS", "RE", "bp", "ne", "in", "ti");
  /** Block starts whose content is skipped, and the macro that ends each. */
  private static final Map<String, String> SKIPPED_BLOCKS =
      Map.of("nf", "fi", "EX", "EE", "TS", "TE", "EQ", "EN", "PS", "PE", "SY", "YS", "de", ".", "ig", ".", "am", ".");
  /** Macros of BSD mdoc(7), which this converter does not read. */
  private static final Set<String> MDOC = Set.of("Dd", "Dt", "Sh", "Nm");

  private static final Map<String, String> GLYPHS = Map.ofEntries(
      Map.entry("em", "\u2014"), Map.entry("en", "\u2013"), Map.entry("hy", "-"), Map.entry("aq", "'"), Map.entry("dq", "\""),
      Map.entry("lq", "\u201C"), Map.entry("rq", "\u201D"), Map.entry("oq", "\u2018"), Map.entry("cq", "\u2019"),
      Map.entry("bu", "\u2022"), Map.entry("co", "\u00A9"), Map.entry("rg", "\u00AE"), Map.entry("tm", "\u2122"),
      Map.entry("de", "\u00B0"), Map.entry("mu", "\u00D7"), Map.entry("di", "\u00F7"), Map.entry("pl", "+"), Map.entry("mi", "\u2212"),
      Map.entry("eq", "="), Map.entry(">=", "\u2265"), Map.entry("<=", "\u2264"), Map.entry("!=", "\u2260"), Map.entry("->", "\u2192"),
      Map.entry("<-", "\u2190"), Map.entry("ha", "^"), Map.entry("ti", "~"), Map.entry("rs", "\\"), Map.entry("sl", "/"),
      Map.entry("ba", "|"), Map.entry("or", "|"), Map.entry("lB", "["), Map.entry("rB", "]"), Map.entry("lC", "{"), Map.entry("rC", "}"),
      Map.entry("la", "\u27E8"), Map.entry("ra", "\u27E9"), Map.entry("Fo", "\u00AB"), Map.entry("Fc", "\u00BB"), Map.entry("ss", "\u00DF"),
      Map.entry("'e", "\u00E9"), Map.entry("`e", "\u00E8"), Map.entry("'a", "\u00E1"), Map.entry("`a", "\u00E0"), Map.entry(":a", "\u00E4"),
      Map.entry(":o", "\u00F6"), Map.entry(":u", "\u00FC"), Map.entry("~n", "\u00F1"), Map.entry(",c", "\u00E7"), Map.entry("'o", "\u00F3"),
      Map.entry("'i", "\u00ED"), Map.entry("'u", "\u00FA"), Map.entry("ga", "`"), Map.entry("aa", "\u00B4"), Map.entry("at", "@"),
      Map.entry("sh", "#"), Map.entry("Do", "$"));
  /** Predefined strings ({@code \*(lq}, {@code \*[R]}, ...). */
  private static final Map<String, String> STRINGS =
      Map.of("lq", "\u201C", "rq", "\u201D", "R", "\u00AE", "Tm", "\u2122", "S", "", "dq", "\"");

  private ManPageText() {}

  /** The paragraphs of the page {@code source} (the roff text). */
  public static List<String> paragraphs(String source) {
    Paragraphs out = new Paragraphs();
    String skipUntil = null;
    boolean synopsis = false;
    int conditionalDepth = 0;
    for (String line : source.split("\r?\n", -1)) {
      if (conditionalDepth > 0) {
        conditionalDepth += braces(line);
        continue;
      }
      boolean control = line.startsWith(".") || line.startsWith("'");
      if (skipUntil != null) {
        if (control && macroName(line).equals(skipUntil)) {
          skipUntil = null;
        }
        continue;
      }
      if (!control) {
        if (!synopsis) {
          out.text(unescape(line));
          if (!line.endsWith("\\c")) {
            out.space();
          }
        }
        continue;
      }
      String name = macroName(line);
      List<String> args = arguments(line);
      if (name.equals("so") || MDOC.contains(name)) {
        return List.of();
      }
      if (name.equals("if") || name.equals("ie") || name.equals("el")) {
        conditionalDepth = Math.max(0, braces(line));
      } else if (SKIPPED_BLOCKS.containsKey(name)) {
        skipUntil = SKIPPED_BLOCKS.get(name);
      } else if (BREAKS.contains(name)) {
        out.end();
        if (name.equals("SH")) {
          synopsis = String.join(" ", args).toUpperCase(Locale.ROOT).equals("SYNOPSIS");
        }
      } else if (!synopsis && (FONT.contains(name) || ALTERNATING.contains(name) || name.equals("UE") || name.equals("ME"))) {
        StringBuilder text = new StringBuilder();
        for (String arg : args) {
          if (!text.isEmpty() && FONT.contains(name)) {
            text.append(' ');
          }
          text.append(unescape(arg));
        }
        out.text(text);
        out.space();
      }
    }
    return out.finish();
  }

  /** The name of the request or macro on control line {@code line} ({@code "."} for {@code ..}, empty for a comment). */
  private static String macroName(String line) {
    int i = 1;
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    int start = i;
    while (i < line.length() && line.charAt(i) != ' ' && line.charAt(i) != '\t' && line.charAt(i) != '\\') {
      i++;
    }
    return line.substring(start, i);
  }

  /** The arguments of control line {@code line}: space-separated, double quotes group, escapes kept. */
  static List<String> arguments(String line) {
    List<String> args = new ArrayList<>();
    int i = 1;
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    while (i < line.length() && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
      i++;
    }
    StringBuilder arg = null;
    boolean quoted = false;
    for (; i < line.length(); i++) {
      char c = line.charAt(i);
      if (arg == null) {
        if (c == ' ' || c == '\t') {
          continue;
        }
        if (line.startsWith("\\\"", i)) {
          break;
        }
        arg = new StringBuilder();
        if (c == '"') {
          quoted = true;
          continue;
        }
      }
      if (c == '\\' && i + 1 < line.length()) {
        if (line.charAt(i + 1) == '"') {
          break;
        }
        arg.append(c).append(line.charAt(++i));
      } else if (quoted && c == '"') {
        if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
          arg.append('"');
          i++;
        } else {
          args.add(arg.toString());
          arg = null;
          quoted = false;
        }
      } else if (!quoted && (c == ' ' || c == '\t')) {
        args.add(arg.toString());
        arg = null;
      } else {
        arg.append(c);
      }
    }
    if (arg != null) {
      args.add(arg.toString());
    }
    return args;
  }

  /** {@code \{} minus {@code \}} on {@code line}: how a conditional block's depth changes. */
  private static int braces(String line) {
    int depth = 0;
    for (int i = line.indexOf('\\'); i >= 0 && i + 1 < line.length(); i = line.indexOf('\\', i + 2)) {
      depth += line.charAt(i + 1) == '{' ? 1 : line.charAt(i + 1) == '}' ? -1 : 0;
    }
    return depth;
  }

  /** {@code text} with troff escapes resolved and a trailing {@code \"} comment cut. */
  static String unescape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i++);
      if (c != '\\' || i == text.length()) {
        out.append(c);
        continue;
      }
      char e = text.charAt(i++);
      switch (e) {
        case '"', '#' -> {
          return out.toString();
        }
        case 'f', 'n', 'm', 'M', 'g', 'F' -> i = skipName(text, i);
        case 's' -> {
          if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
          }
          i = i < text.length() && text.charAt(i) == '\'' ? skipDelimited(text, i) : skipName(text, i);
        }
        case '(' -> {
          out.append(GLYPHS.getOrDefault(text.substring(i, Math.min(i + 2, text.length())), ""));
          i = Math.min(i + 2, text.length());
        }
        case '[' -> {
          int end = closing(text, i);
          out.append(glyph(text.substring(i, end)));
          i = Math.min(end + 1, text.length());
        }
        case '*' -> {
          int start = i;
          i = skipName(text, i);
          String name = text.substring(start, i);
          out.append(STRINGS.getOrDefault(name.startsWith("(") ? name.substring(1) : name.startsWith("[") ? name.substring(1, name.length() - 1) : name, ""));
        }
        case 'N' -> {
          int end = skipDelimited(text, i);
          String number = text.substring(Math.min(i + 1, end), Math.max(i + 1, end - 1));
          if (!number.isEmpty() && number.chars().allMatch(Character::isDigit) && number.length() < 8) {
            out.appendCodePoint(Integer.parseInt(number));
          }
          i = end;
        }
        case 'C' -> {
          int end = skipDelimited(text, i);
          out.append(glyph(text.substring(Math.min(i + 1, end), Math.max(i + 1, end - 1))));
          i = end;
        }
        case 'h', 'v', 'w', 'l', 'L', 'D', 'o', 'b', 'x', 'X', 'Z', 'A', 'B', 'R', 'S', 'H', 'Y', 'V', '?' -> i = skipDelimited(text, i);
        case 'k', 'z' -> i = Math.min(i + (e == 'k' ? 1 : 0), text.length());
        case 'e', 'E', '\\' -> out.append('\\');
        case '-' -> out.append('-');
        case ' ', '~', '0', 't' -> out.append(' ');
        case '\'' -> out.append('\'');
        case '`' -> out.append('`');
        case '.' -> out.append('.');
        case '|', '^', '&', '%', ':', '/', ',', ')', '{', '}', 'c', 'a', 'p', 'r', 'u', 'd', '!' -> {}
        default -> out.append(e);
      }
    }
    return out.toString();
  }

  private static String glyph(String name) {
    if (name.length() > 1 && name.charAt(0) == 'u' && name.chars().skip(1).allMatch(ch -> Character.digit(ch, 16) >= 0) && name.length() <= 7) {
      return new String(Character.toChars(Integer.parseInt(name.substring(1), 16)));
    }
    return GLYPHS.getOrDefault(name, "");
  }

  /** After an escape's one-character, {@code (xx} or {@code [name]} argument starting at {@code i}. */
  private static int skipName(String text, int i) {
    if (i >= text.length()) {
      return i;
    }
    return switch (text.charAt(i)) {
      case '(' -> Math.min(i + 3, text.length());
      case '[' -> Math.min(closing(text, i + 1) + 1, text.length());
      default -> i + 1;
    };
  }

  /** After an escape's argument delimited by the character at {@code i} ({@code \h'1i'}). */
  private static int skipDelimited(String text, int i) {
    if (i >= text.length()) {
      return i;
    }
    int end = text.indexOf(text.charAt(i), i + 1);
    return end < 0 ? text.length() : end + 1;
  }

  private static int closing(String text, int from) {
    int end = text.indexOf(']', from);
    return end < 0 ? text.length() : end;
  }
}
