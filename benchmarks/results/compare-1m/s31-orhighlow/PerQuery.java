package org.lucenenvm.bench;

import java.nio.file.*;
import java.util.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.store.Directory;

public class PerQuery {
  public static void main(String[] a) throws Exception {
    Configuration c = Configurations.select(List.of(a[0]), 6L << 30).get(0);
    List<Query> queries = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(a[2]))) {
      String[] t = line.split("#")[0].split(":")[1].trim().split("\\s+");
      BooleanQuery.Builder b = new BooleanQuery.Builder();
      for (String term : t) b.add(new TermQuery(new Term("body", term)), BooleanClause.Occur.SHOULD);
      queries.add(b.build());
    }
    int passes = Integer.parseInt(a[3]);
    try (Directory d = c.createDirectory(Path.of(a[1])); DirectoryReader r = DirectoryReader.open(d)) {
      IndexSearcher s = new IndexSearcher(r);
      s.setQueryCache(null);
      long[] total = new long[queries.size()];
      long sink = 0;
      for (int p = 0; p < passes + 10; p++) {
        for (int i = 0; i < queries.size(); i++) {
          long t0 = System.nanoTime();
          sink += s.search(queries.get(i), 10).totalHits.value();
          long t1 = System.nanoTime();
          if (p >= 10) total[i] += t1 - t0;
        }
      }
      for (int i = 0; i < queries.size(); i++) System.out.println(i + "\t" + total[i] / passes);
      System.err.println("sink " + sink);
    }
  }
}
