package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;

/** Feeds the first documents of a line-doc file into an {@link IndexWriter}. */
public final class CorpusIngest {

  /** Called after each acknowledged document with the number acknowledged so far. */
  @FunctionalInterface
  public interface AckListener {
    /** {@code acked} documents have been added. */
    void acknowledged(long acked) throws IOException;
  }

  private CorpusIngest() {}

  /** Number of documents in {@code corpus} (a header line is not counted). */
  public static long countDocs(Path corpus) throws IOException {
    long count = 0;
    try (LineDocReader reader = LineDocReader.open(corpus)) {
      while (reader.next() != null) {
        count++;
      }
    }
    return count;
  }

  /**
   * Adds the first {@code docs} documents of {@code corpus} to {@code writer}, calling {@code
   * listener} after each one; fails if the corpus is shorter.
   */
  public static void ingest(Path corpus, long docs, IndexWriter writer, AckListener listener, String label) throws IOException {
    DocumentFactory factory = new DocumentFactory();
    try (LineDocReader reader = LineDocReader.open(corpus);
        ProgressMeter progress = new ProgressMeter(label, docs, "docs")) {
      for (long acked = 1; acked <= docs; acked++) {
        LineDoc doc = reader.next();
        if (doc == null) {
          throw new IOException(corpus + " has only " + (acked - 1) + " documents, " + docs + " were asked for");
        }
        writer.addDocument(factory.toDocument(doc));
        listener.acknowledged(acked);
        progress.advance(1);
      }
    }
  }
}
