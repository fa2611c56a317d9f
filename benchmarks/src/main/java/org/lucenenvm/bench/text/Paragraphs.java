package org.lucenenvm.bench.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the running text of a document into paragraphs, the common end of every {@link
 * DocFormat}'s converter: runs of white space and control characters become one space, leading and
 * trailing space is dropped, and an empty paragraph is never kept.
 */
final class Paragraphs {

  private final List<String> done = new ArrayList<>();
  private final StringBuilder current = new StringBuilder();
  private boolean space;

  /** Appends {@code text} to the current paragraph. */
  void text(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
        space = true;
      } else {
        if (space && !current.isEmpty()) {
          current.append(' ');
        }
        space = false;
        current.append(c);
      }
    }
  }

  /** Separates what follows from what came before by a space (a line end inside a paragraph). */
  void space() {
    space = true;
  }

  /** Ends the current paragraph, if it holds any text. */
  void end() {
    if (!current.isEmpty()) {
      done.add(current.toString());
      current.setLength(0);
    }
    space = false;
  }

  /** Ends the current paragraph and returns all of them, in order. */
  List<String> finish() {
    end();
    return done;
  }
}
