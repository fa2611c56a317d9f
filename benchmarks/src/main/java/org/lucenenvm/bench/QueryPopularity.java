package org.lucenenvm.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.lucene.search.Query;

/**
 * How often each distinct query of a category recurs in the replayed stream ({@code
 * --query-popularity}). {@code uniform} (the default) replays the tasks file's queries in a seeded
 * shuffle, each as often as it appears there. {@code zipf:<s>} replaces each category's queries by
 * a stream of {@value #ZIPF_STREAM} draws: the distinct queries, in the seeded shuffle's order,
 * are ranks 1..n, and each draw picks rank r with probability proportional to {@code 1 / r^s}
 * ({@link ZipfSampler}, seeded), so the popular queries of the stream recur as in real search
 * traffic (what a result cache feeds on). The stream is the same for every configuration of a run
 * with the same seed.
 *
 * @param zipfExponent 0 for uniform, else the Zipf exponent {@code s > 0}
 */
public record QueryPopularity(double zipfExponent) {
  /** Draws per category of a Zipf stream (runs cycle through it as through the tasks). */
  public static final int ZIPF_STREAM = 100_000;

  /** The tasks file's own popularity. */
  public static final QueryPopularity UNIFORM = new QueryPopularity(0);

  /** Parses {@code uniform} or {@code zipf:<s>} (e.g. {@code zipf:1.0}). */
  public static QueryPopularity parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("uniform")) {
      return UNIFORM;
    }
    if (t.startsWith("zipf:")) {
      double s;
      try {
        s = Double.parseDouble(t.substring("zipf:".length()));
      } catch (NumberFormatException e) {
        s = Double.NaN;
      }
      if (s > 0 && !Double.isInfinite(s)) {
        return new QueryPopularity(s);
      }
    }
    throw new IllegalArgumentException(
        "bad query popularity '" + text + "': use uniform or zipf:<exponent > 0>, e.g. zipf:1.0");
  }

  /**
   * The replayed stream of {@code queries} (a category's queries, already in seeded order): them
   * as they are when uniform, else {@value #ZIPF_STREAM} Zipf draws over the distinct ones.
   */
  List<Query> stream(List<Query> queries, SplittableRandom random) {
    if (zipfExponent == 0) {
      return queries;
    }
    List<Query> distinct = new ArrayList<>(new LinkedHashSet<>(queries));
    ZipfSampler sampler = new ZipfSampler(distinct.size(), zipfExponent);
    List<Query> stream = new ArrayList<>(ZIPF_STREAM);
    for (int i = 0; i < ZIPF_STREAM; i++) {
      stream.add(distinct.get(sampler.sample(random)));
    }
    return List.copyOf(stream);
  }

  /** The option's text form. */
  @Override
  public String toString() {
    return zipfExponent == 0 ? "uniform" : "zipf:" + zipfExponent;
  }
}
