package org.lucenenvm.codec;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.lucenenvm.store.NvmDirectory;

/**
 * One line that sums up an index: CheckIndex's verdict, the document count and the top hits of a
 * few term queries. Run as a child JVM by {@link TestNvmCodecOnNvmDirectory} to check that a new
 * process reads the pool back exactly as the writer left it.
 */
public final class NvmIndexSummary {
  private NvmIndexSummary() {}

  public static void main(String[] args) throws IOException {
    try (NvmDirectory dir = NvmDirectory.open(Path.of(args[0]), 0)) {
      System.out.println(summarize(dir));
    }
  }

  static String summarize(Directory dir) throws IOException {
    StringBuilder summary = new StringBuilder();
    try (CheckIndex checker = new CheckIndex(dir)) {
      summary.append("clean=").append(checker.checkIndex().clean);
    }
    try (DirectoryReader reader = DirectoryReader.open(dir)) {
      summary.append(" docs=").append(reader.numDocs());
      IndexSearcher searcher = new IndexSearcher(reader);
      for (String term : new String[] {"t0", "t1", "t5", "t20"}) {
        TopDocs top = searcher.search(new TermQuery(new Term(RandomDocs.BODY, term)), 5);
        summary.append(' ').append(term).append('=').append(top.totalHits.value());
        for (ScoreDoc hit : top.scoreDocs) {
          summary.append(',').append(hit.doc).append(':').append(hit.score);
        }
      }
    }
    return summary.toString();
  }
}
