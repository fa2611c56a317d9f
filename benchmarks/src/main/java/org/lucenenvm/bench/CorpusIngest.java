package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.lucenenvm.server.ProgressMeter;

/** Feeds the first documents of a line-doc file into an index, one document at a time. */
public final class CorpusIngest {

  /** Takes one document; it is acknowledged when this returns. */
  @FunctionalInterface
  public interface DocumentSink {
    /** Indexes {@code doc}. */
    void add(LineDoc doc) throws IOException;
  }

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

  /** A sink adding documents built by {@link DocumentFactory} to {@code writer}; one thread only. */
  public static DocumentSink into(IndexWriter writer) {
    return into(writer, new DocumentFactory());
  }

  /** A sink adding documents built by {@code factory} to {@code writer}; one thread only. */
  public static DocumentSink into(IndexWriter writer, DocumentFactory factory) {
    return doc -> writer.addDocument(factory.toDocument(doc));
  }

  /**
   * Adds the first {@code docs} documents of {@code corpus} to {@code sink}, calling {@code
   * listener} after each one; fails if the corpus is shorter.
   */
  public static void ingest(Path corpus, long docs, DocumentSink sink, AckListener listener, String label) throws IOException {
    try (LineDocReader reader = LineDocReader.open(corpus);
        ProgressMeter progress = new ProgressMeter(label, docs, "docs")) {
      for (long acked = 1; acked <= docs; acked++) {
        LineDoc doc = reader.next();
        if (doc == null) {
          throw new IOException(corpus + " has only " + (acked - 1) + " documents, " + docs + " were asked for");
        }
        sink.add(doc);
        listener.acknowledged(acked);
        progress.advance(1);
      }
    }
  }
}
