package org.lucenenvm.bench.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits a paragraph into sentences: after {@code .}, {@code !} or {@code ?} (and any closing
 * quotes or brackets) followed by white space and an upper-case letter, a digit or an opening quote
 * or bracket, unless the word ending in the period is a common abbreviation ({@code e.g.}, {@code
 * i.e.}, {@code etc.}, {@code vs.}, ...).
 */
public final class Sentences {

  private static final Set<String> ABBREVIATIONS =
      Set.of("e.g", "i.e", "etc", "vs", "cf", "al", "fig", "no", "nr", "mr", "mrs", "dr", "st", "approx", "resp", "incl", "ca", "sec", "ch");

  private Sentences() {}

  /** The sentences of {@code paragraph}, stripped, in order. */
  public static List<String> split(String paragraph) {
    List<String> sentences = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < paragraph.length(); i++) {
      char c = paragraph.charAt(i);
      if (c != '.' && c != '!' && c != '?') {
        continue;
      }
      int end = i + 1;
      while (end < paragraph.length() && "\"')]\u201D\u2019".indexOf(paragraph.charAt(end)) >= 0) {
        end++;
      }
      int next = end;
      while (next < paragraph.length() && Character.isWhitespace(paragraph.charAt(next))) {
        next++;
      }
      if (next == end || next == paragraph.length() || !opensSentence(paragraph.charAt(next)) || (c == '.' && abbreviation(paragraph, start, i))) {
        continue;
      }
      sentences.add(paragraph.substring(start, end).strip());
      start = next;
      i = next - 1;
    }
    String last = paragraph.substring(start).strip();
    if (!last.isEmpty()) {
      sentences.add(last);
    }
    return sentences;
  }

  private static boolean opensSentence(char c) {
    return Character.isUpperCase(c) || Character.isDigit(c) || "\"'([\u201C\u2018".indexOf(c) >= 0;
  }

  /** Whether the word before the period at {@code period} (within the sentence from {@code start}) is an abbreviation. */
  private static boolean abbreviation(String text, int start, int period) {
    int wordStart = period;
    while (wordStart > start && !Character.isWhitespace(text.charAt(wordStart - 1)) && text.charAt(wordStart - 1) != '(') {
      wordStart--;
    }
    return ABBREVIATIONS.contains(text.substring(wordStart, period).toLowerCase(Locale.ROOT));
  }
}
