package org.lucenenvm.store.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.lucenenvm.store.NvmDirectory;

/**
 * The store demo: indexes generated documents into an {@link NvmDirectory} over a pool file,
 * commits, closes the pool, reopens it and runs a few queries, printing hits and timings.
 *
 * <p>Arguments: {@code [pool file (default data/demo.pool)] [documents (default 5000)] [pool
 * bytes (default 512 MiB)]}.
 */
public final class StoreDemo {
  private static final String[] WORDS = {
    "index", "segment", "memory", "persistent", "search", "query", "lucene", "postings", "term",
    "document", "commit", "merge", "flush", "pool", "heap", "pointer", "latency", "throughput",
    "cache", "reader", "writer", "score", "phrase", "field", "analyzer", "token", "block", "skip",
    "impact", "norm", "crash", "restart", "optane", "dax", "mapping", "persist", "barrier", "fence"
  };

  private StoreDemo() {}

  public static void main(String[] args) throws Exception {
    Path pool = Path.of(args.length > 0 ? args[0] : "data/demo.pool");
    int docs = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    long poolBytes = args.length > 2 ? Long.parseLong(args[2]) : 512L * 1024 * 1024;
    if (pool.toAbsolutePath().getParent() != null) {
      Files.createDirectories(pool.toAbsolutePath().getParent());
    }

    long t0 = System.nanoTime();
    try (NvmDirectory dir = NvmDirectory.open(pool, poolBytes)) {
      System.out.printf(
          "pool %s: %d MiB, %s, %s (opened in %.1f ms)%n",
          pool,
          dir.heap().size() >> 20,
          dir.heap().wasCreated() ? "created" : "reopened",
          dir.heap().isSynchronous() ? "MAP_SYNC (DAX)" : "emulated (shared mapping + msync)",
          millis(t0));
      long t1 = System.nanoTime();
      IndexWriterConfig config =
          new IndexWriterConfig(new StandardAnalyzer()).setOpenMode(IndexWriterConfig.OpenMode.CREATE);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        Random random = new Random(42);
        for (int i = 0; i < docs; i++) {
          writer.addDocument(document(i, random));
        }
        writer.commit();
      }
      double indexMs = millis(t1);
      System.out.printf(
          "indexed and committed %d documents in %.0f ms (%.0f docs/s); %d MiB of the pool free%n",
          docs, indexMs, docs / (indexMs / 1000), dir.freeBytes() >> 20);
    }

    long t2 = System.nanoTime();
    try (NvmDirectory dir = NvmDirectory.open(pool, 0);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      System.out.printf(
          "reopened the pool and the last commit: %d documents in %d segments (%.1f ms)%n",
          reader.numDocs(), reader.leaves().size(), millis(t2));
      IndexSearcher searcher = new IndexSearcher(reader);
      StoredFields stored = searcher.storedFields();
      for (Query query : queries()) {
        for (int i = 0; i < 200; i++) {
          searcher.search(query, 10); // warm up the code path before timing one run
        }
        long t = System.nanoTime();
        TopDocs top = searcher.search(query, 10);
        long micros = (System.nanoTime() - t) / 1000;
        StringBuilder ids = new StringBuilder();
        for (ScoreDoc hit : top.scoreDocs) {
          ids.append(ids.isEmpty() ? "" : ",").append(stored.document(hit.doc).get("id"));
        }
        System.out.printf("  %-30s %10s %6d us  top 10 ids: %s%n", query, top.totalHits, micros, ids);
      }
    }
  }

  private static List<Query> queries() {
    return List.of(
        new TermQuery(new Term("body", "persistent")),
        new TermQuery(new Term("body", "fence")),
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term("body", "segment")), BooleanClause.Occur.MUST)
            .add(new TermQuery(new Term("body", "merge")), BooleanClause.Occur.MUST)
            .build(),
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term("body", "crash")), BooleanClause.Occur.SHOULD)
            .add(new TermQuery(new Term("body", "restart")), BooleanClause.Occur.SHOULD)
            .build(),
        new PhraseQuery("body", "persistent", "memory"));
  }

  /** A document of 100 to 200 words drawn with a skewed (roughly Zipfian) distribution. */
  private static Document document(int id, Random random) {
    StringBuilder body = new StringBuilder();
    int length = 100 + random.nextInt(100);
    for (int w = 0; w < length; w++) {
      double u = random.nextDouble();
      body.append(WORDS[(int) (WORDS.length * u * u * u)]).append(' ');
    }
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    doc.add(new TextField("body", body.toString(), Field.Store.NO));
    return doc;
  }

  private static double millis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}
