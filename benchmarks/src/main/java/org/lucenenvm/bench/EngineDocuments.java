package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtEngine;

/** The benchmark's line documents as the real-time engine's documents ({@link EngineTarget#SCHEMA}). */
final class EngineDocuments {
  private EngineDocuments() {}

  /** {@code doc} as the engine's document {@code id}. */
  static RtDocument of(long id, LineDoc doc) {
    return new RtDocument(Long.toString(id),
        Map.of(DocumentFactory.TITLE, doc.title(), DocumentFactory.DATE, doc.date(), DocumentFactory.BODY, doc.body()));
  }

  /** Adds documents {@code from} to {@code from + count - 1} of {@code corpus} (0-based; ids are their positions). */
  static void addRange(RtEngine engine, Path corpus, long from, long count) throws IOException {
    try (LineDocReader reader = LineDocReader.open(corpus)) {
      for (long i = 0; i < from + count; i++) {
        LineDoc doc = reader.next();
        if (doc == null) {
          throw new IllegalArgumentException(corpus + " holds " + i + " documents, fewer than the " + (from + count) + " needed");
        }
        if (i >= from) {
          engine.add(of(i, doc));
        }
      }
    }
  }
}
