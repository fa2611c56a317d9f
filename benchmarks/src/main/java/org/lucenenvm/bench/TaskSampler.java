package org.lucenenvm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.lucenenvm.server.ProgressMeter;

/**
 * Samples luceneutil-style tasks from a corpus's own body-term document frequencies (DF), for
 * {@link CorpusGenerator} and {@link CorpusTasks}. Terms are numbered {@code 0..n-1}; a function
 * names them in query syntax.
 *
 * <p>Categories (each with up to {@code tasksPerCategory} distinct tasks), by {@link TermClass}:
 *
 * <ul>
 *   <li>{@code TermLow}, {@code TermMed}, {@code TermHigh}: one term; comment {@code freq=DF}
 *   <li>{@code AndLowLow}, {@code AndMedMed}, {@code AndHighHigh}: {@code +a +b}, two terms of the
 *       class that occur together in some document (reservoir-sampled in a second pass over the
 *       documents); comment {@code freq=DF(a) freq=DF(b)}
 *   <li>{@code OrHighHigh}, {@code OrHighMed}, {@code OrHighLow}: {@code a b}
 * </ul>
 *
 * A category whose class has too few terms is shorter or left out, with a note on stderr.
 * Deterministic for a given seed, DFs and document stream.
 */
final class TaskSampler {

  /** The corpus's documents as term numbers, walked once more for the co-occurring pairs. */
  @FunctionalInterface
  interface TermDocuments {
    /** Calls {@code consumer} for every document in corpus order. */
    void forEach(DocumentTerms consumer) throws IOException;
  }

  /** One document's body terms: {@code terms[0, length)}, repeats allowed. */
  @FunctionalInterface
  interface DocumentTerms {
    /** Takes one document; {@code terms} is valid only during the call. */
    void accept(int[] terms, int length);
  }

  private final long docs;
  private final int tasksPerCategory;
  private final SplittableRandom random;
  private final String notePrefix;

  /**
   * A sampler for a corpus of {@code docs} documents, drawing with {@code seed}; notes on stderr
   * start with {@code notePrefix} (the command's name).
   */
  TaskSampler(long docs, int tasksPerCategory, long seed, String notePrefix) {
    this.docs = docs;
    this.tasksPerCategory = tasksPerCategory;
    this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    this.notePrefix = notePrefix;
  }

  /** Tasks of the terms whose DFs are {@code docFreq}, named by {@code word}, over {@code documents}. */
  List<Task> sample(int[] docFreq, IntFunction<String> word, TermDocuments documents) throws IOException {
    TermClass[] classOf = new TermClass[docFreq.length];
    Map<TermClass, List<Integer>> members = new EnumMap<>(TermClass.class);
    for (TermClass c : TermClass.values()) {
      members.put(c, new ArrayList<>());
    }
    for (int term = 0; term < docFreq.length; term++) {
      classOf[term] = TermClass.of(docFreq[term], docs);
      if (classOf[term] != null) {
        members.get(classOf[term]).add(term);
      }
    }
    List<Task> tasks = new ArrayList<>();
    for (TermClass c : List.of(TermClass.LOW, TermClass.MED, TermClass.HIGH)) {
      List<Integer> terms = new ArrayList<>(members.get(c));
      shuffle(terms);
      for (int term : terms.subList(0, Math.min(terms.size(), tasksPerCategory))) {
        tasks.add(new Task("Term" + c.label(), word.apply(term), "freq=" + docFreq[term]));
      }
      noteIfShort("Term" + c.label(), terms.size());
    }
    Map<TermClass, List<int[]>> cooccurring = sampleCooccurringPairs(classOf, documents);
    for (TermClass c : List.of(TermClass.LOW, TermClass.MED, TermClass.HIGH)) {
      String category = "And" + c.label() + c.label();
      for (int[] pair : cooccurring.get(c)) {
        tasks.add(pairTask(category, "+", pair[0], pair[1], docFreq, word));
      }
      noteIfShort(category, cooccurring.get(c).size());
    }
    for (TermClass other : List.of(TermClass.HIGH, TermClass.MED, TermClass.LOW)) {
      String category = "OrHigh" + other.label();
      List<int[]> pairs = randomPairs(members.get(TermClass.HIGH), members.get(other));
      for (int[] pair : pairs) {
        tasks.add(pairTask(category, "", pair[0], pair[1], docFreq, word));
      }
      noteIfShort(category, pairs.size());
    }
    return tasks;
  }

  private Map<TermClass, List<int[]>> sampleCooccurringPairs(TermClass[] classOf, TermDocuments documents) throws IOException {
    Map<TermClass, PairReservoir> reservoirs = new EnumMap<>(TermClass.class);
    Map<TermClass, int[]> docTerms = new EnumMap<>(TermClass.class);
    int[] counts = new int[TermClass.values().length];
    for (TermClass c : TermClass.values()) {
      reservoirs.put(c, new PairReservoir(tasksPerCategory, random.split()));
      docTerms.put(c, new int[64]);
    }
    int[] lastDoc = new int[classOf.length];
    int[] doc = {0};
    try (ProgressMeter progress = new ProgressMeter("sample tasks", docs, "docs")) {
      documents.forEach((terms, length) -> {
        doc[0]++;
        Arrays.fill(counts, 0);
        for (int i = 0; i < length; i++) {
          int term = terms[i];
          TermClass c = classOf[term];
          if (c == null || lastDoc[term] == doc[0]) {
            continue;
          }
          lastDoc[term] = doc[0];
          int[] list = docTerms.get(c);
          if (counts[c.ordinal()] == list.length) {
            list = Arrays.copyOf(list, list.length * 2);
            docTerms.put(c, list);
          }
          list[counts[c.ordinal()]++] = term;
        }
        for (TermClass c : TermClass.values()) {
          int n = counts[c.ordinal()];
          if (n >= 2) {
            int[] list = docTerms.get(c);
            int a = random.nextInt(n);
            int b = random.nextInt(n - 1);
            reservoirs.get(c).offer(list[a], list[b >= a ? b + 1 : b]);
          }
        }
        progress.advance(1);
      });
    }
    Map<TermClass, List<int[]>> result = new EnumMap<>(TermClass.class);
    reservoirs.forEach((c, r) -> result.put(c, r.pairs()));
    return result;
  }

  private List<int[]> randomPairs(List<Integer> first, List<Integer> second) {
    List<int[]> pairs = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    if (first.isEmpty() || second.isEmpty()) {
      return pairs;
    }
    // Bounded attempts: small classes may hold fewer distinct pairs than asked for.
    for (int attempt = 0; attempt < 20 * tasksPerCategory && pairs.size() < tasksPerCategory; attempt++) {
      int a = first.get(random.nextInt(first.size()));
      int b = second.get(random.nextInt(second.size()));
      if (a != b && seen.add(((long) Math.min(a, b) << 32) | Math.max(a, b))) {
        pairs.add(new int[] {a, b});
      }
    }
    return pairs;
  }

  private static Task pairTask(String category, String operator, int a, int b, int[] docFreq, IntFunction<String> word) {
    return new Task(category, operator + word.apply(a) + " " + operator + word.apply(b), "freq=" + docFreq[a] + " freq=" + docFreq[b]);
  }

  private void noteIfShort(String category, int available) {
    if (available < tasksPerCategory) {
      System.err.printf("%s: %s has %d distinct tasks (asked for %d): the corpus has too few terms of that class%n",
          notePrefix, category, available, tasksPerCategory);
    }
  }

  private void shuffle(List<Integer> list) {
    for (int i = list.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      Integer tmp = list.get(i);
      list.set(i, list.get(j));
      list.set(j, tmp);
    }
  }
}
