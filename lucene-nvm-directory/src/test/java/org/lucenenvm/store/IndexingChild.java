package org.lucenenvm.store;

import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * Child JVM for the persistence and crash tests: appends batches of documents with consecutive
 * ids to the index in an NVM pool, commits after each batch and prints {@code COMMITTED <n>} (the
 * number of committed documents) once the commit returned. Since every commit adds a contiguous
 * range of ids, the committed documents are always the ids {@code [0, n)}.
 *
 * <p>Arguments: pool file, pool size, documents per batch, number of batches (-1: forever).
 */
public final class IndexingChild {
  private IndexingChild() {}

  public static void main(String[] args) throws Exception {
    Path pool = Path.of(args[0]);
    long poolSize = Long.parseLong(args[1]);
    int batch = Integer.parseInt(args[2]);
    int batches = Integer.parseInt(args[3]);
    try (NvmDirectory dir = NvmDirectory.open(pool, poolSize);
        IndexWriter writer =
            new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()).setMaxBufferedDocs(batch / 2 + 1))) {
      int next = writer.getDocStats().numDocs;
      Random random = new Random(next);
      for (int b = 0; batches < 0 || b < batches; b++) {
        for (int i = 0; i < batch; i++, next++) {
          writer.addDocument(document(next, random));
        }
        writer.commit();
        System.out.println("COMMITTED " + next);
        System.out.flush();
      }
    }
    System.out.println("DONE");
  }

  static Document document(int id, Random random) {
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    StringBuilder body = new StringBuilder();
    for (int w = 0; w < 40; w++) {
      body.append("w").append(random.nextInt(500)).append(' ');
    }
    doc.add(new TextField("body", body.toString(), Field.Store.NO));
    return doc;
  }
}
