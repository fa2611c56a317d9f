package org.lucenenvm.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;

/**
 * The top-k hits of every query of a workload, each hit named by a stable document identity (its
 * stored {@code date} and {@code title}, not the Lucene doc id, which may differ between indexes), so
 * that two configurations can be checked for returning the same documents.
 *
 * <p>File format ({@value #FILE}), UTF-8, one line per query in workload order: {@code
 * category<TAB>query number<TAB>total hits<TAB>hit 1<TAB>hit 2 ...}, where total hits is Lucene's
 * count with {@code +} appended when it is a lower bound and a hit is {@code score|date|title}
 * ({@link Float#toString} of the score, exact). Line docs have no tab in title or date.
 *
 * <p>Two indexes of the same documents need not number them alike (concurrent merges choose which
 * segments to merge by timing), and Lucene breaks score ties by doc id, so documents with equal
 * scores may come in another order, and a tie across the k-th rank may let other documents in.
 * Hits are therefore compared as scores per rank, and as sets of identities per group of equal
 * scores, except the last group, whose members may be any of the documents with that score.
 */
final class HitIdentities {

  /** File name in a JVM's output directory. */
  static final String FILE = "hits.tsv";

  private static final Set<String> IDENTITY_FIELDS = Set.of(DocumentFactory.TITLE, DocumentFactory.DATE);

  /** Per category, one line (everything after the category) per query. */
  private final Map<String, List<String>> byCategory;

  private HitIdentities(Map<String, List<String>> byCategory) {
    this.byCategory = byCategory;
  }

  /** Runs every query of {@code workload} once on {@code searcher} and records its top {@code topK}. */
  static HitIdentities collect(IndexSearcher searcher, Workload workload, int topK) throws IOException {
    StoredFields stored = searcher.storedFields();
    Map<String, List<String>> byCategory = new LinkedHashMap<>();
    for (String category : workload.categories()) {
      List<String> lines = new ArrayList<>();
      List<Query> queries = workload.queries(category);
      for (int i = 0; i < queries.size(); i++) {
        TopDocs top = searcher.search(queries.get(i), topK);
        StringBuilder line = new StringBuilder().append(i).append('\t').append(top.totalHits.value())
            .append(top.totalHits.relation() == TotalHits.Relation.EQUAL_TO ? "" : "+");
        for (ScoreDoc hit : top.scoreDocs) {
          Document doc = stored.document(hit.doc, IDENTITY_FIELDS);
          line.append('\t').append(hit.score).append('|').append(doc.get(DocumentFactory.DATE))
              .append('|').append(doc.get(DocumentFactory.TITLE));
        }
        lines.add(line.toString());
      }
      byCategory.put(category, lines);
    }
    return new HitIdentities(byCategory);
  }

  /** Writes the hits to {@code file}. */
  void write(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (var e : byCategory.entrySet()) {
        for (String line : e.getValue()) {
          out.write(e.getKey() + '\t' + line);
          out.newLine();
        }
      }
    }
  }

  /** Reads a file {@link #write} wrote; a line without category and query number is an error. */
  static HitIdentities read(Path file) throws IOException {
    Map<String, List<String>> byCategory = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String[] parts = lines.get(i).split("\t", 2);
      if (parts.length != 2) {
        throw new IOException(file + " line " + (i + 1) + ": expected 'category<TAB>query number<TAB>...'");
      }
      byCategory.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
    }
    return new HitIdentities(byCategory);
  }

  /** How many queries of {@code category} were compared and how many returned different hits. */
  record Difference(int compared, int differing) {}

  /**
   * Compares the queries of {@code category} with {@code other}'s: a query differs if its top-k
   * identities (in rank order) differ, if its total hits differ where both are exact (Lucene counts
   * exactly up to a threshold; beyond it the count is a lower bound that depends on how the postings
   * format skips, so two lower bounds are not compared, and an exact count must reach the other's
   * bound), or if only one side ran it.
   */
  Difference compare(String category, HitIdentities other) {
    List<String> mine = byCategory.getOrDefault(category, List.of());
    List<String> theirs = other.byCategory.getOrDefault(category, List.of());
    int compared = Math.max(mine.size(), theirs.size());
    int differing = 0;
    for (int i = 0; i < compared; i++) {
      if (i >= mine.size() || i >= theirs.size() || !sameHits(mine.get(i), theirs.get(i))) {
        differing++;
      }
    }
    return new Difference(compared, differing);
  }

  /** Whether two lines ({@code number<TAB>total<TAB>hits...}) name the same hits (see above). */
  static boolean sameHits(String a, String b) {
    String[] x = a.split("\t");
    String[] y = b.split("\t");
    return x[0].equals(y[0]) && sameTotals(x[1], y[1]) && sameTopK(x, y);
  }

  private static boolean sameTotals(String x, String y) {
    boolean xExact = !x.endsWith("+");
    boolean yExact = !y.endsWith("+");
    long xTotal = Long.parseLong(xExact ? x : x.substring(0, x.length() - 1));
    long yTotal = Long.parseLong(yExact ? y : y.substring(0, y.length() - 1));
    if (xExact && yExact) {
      return xTotal == yTotal;
    }
    return (!xExact || xTotal >= yTotal) && (!yExact || yTotal >= xTotal);
  }

  /** Hits from index 2 on: equal scores per rank, equal identity sets per tie group but the last. */
  private static boolean sameTopK(String[] x, String[] y) {
    if (x.length != y.length) {
      return false;
    }
    int groupStart = 2;
    for (int i = 2; i < x.length; i++) {
      String score = score(x[i]);
      if (!score.equals(score(y[i]))) {
        return false;
      }
      boolean groupEnds = i + 1 == x.length || !score.equals(score(x[i + 1]));
      if (groupEnds && i + 1 < x.length && !sameIdentities(x, y, groupStart, i + 1)) {
        return false;
      }
      if (groupEnds) {
        groupStart = i + 1;
      }
    }
    return true;
  }

  private static String score(String hit) {
    return hit.substring(0, hit.indexOf('|'));
  }

  private static boolean sameIdentities(String[] x, String[] y, int from, int to) {
    Set<String> xs = new HashSet<>(Arrays.asList(x).subList(from, to));
    return xs.equals(new HashSet<>(Arrays.asList(y).subList(from, to)));
  }
}
