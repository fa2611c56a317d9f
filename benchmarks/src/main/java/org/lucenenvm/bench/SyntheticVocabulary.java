package org.lucenenvm.bench;

/**
 * Deterministic synthetic words for term ranks: rank 0 is the most frequent term.
 *
 * <p>A word is a sequence of consonant-vowel syllables ({@value #SYLLABLES} of them), at least two,
 * so frequent ranks get short words and rare ranks long ones, as in natural language: ranks
 * {@code [0, 95^2)} get two syllables, the next {@code 95^3} ranks three, and so on. Inside one length
 * the rank goes through an affine bijection so that lexical order does not follow frequency. Every
 * rank maps to a distinct lower-case ASCII word that Lucene's {@code StandardAnalyzer} keeps as one
 * token.
 */
public final class SyntheticVocabulary {

  private static final String CONSONANTS = "bcdfghjklmnprstvwxz";
  private static final String VOWELS = "aeiou";
  /** Number of distinct syllables (consonants times vowels). */
  public static final int SYLLABLES = 95;
  private static final int MIN_SYLLABLES = 2;
  /** Coprime with 95 (= 5 * 19), hence with every bucket size; small enough that products fit a long. */
  private static final long SCRAMBLE = 7_777_777L;
  private static final long SHIFT = 12_345L;

  private SyntheticVocabulary() {}

  /** The word of {@code rank} (0-based). */
  public static String word(int rank) {
    if (rank < 0) {
      throw new IllegalArgumentException("rank must be >= 0: " + rank);
    }
    long index = rank;
    long bucket = (long) SYLLABLES * SYLLABLES;
    int syllables = MIN_SYLLABLES;
    while (index >= bucket) {
      index -= bucket;
      bucket *= SYLLABLES;
      syllables++;
    }
    long code = (index * SCRAMBLE + SHIFT) % bucket;
    StringBuilder sb = new StringBuilder(2 * syllables);
    for (int i = 0; i < syllables; i++) {
      int syllable = (int) (code % SYLLABLES);
      code /= SYLLABLES;
      sb.append(CONSONANTS.charAt(syllable / VOWELS.length())).append(VOWELS.charAt(syllable % VOWELS.length()));
    }
    return sb.toString();
  }

  /** Length in characters of {@link #word(int)}, computed without building the word. */
  public static int wordLength(int rank) {
    long index = rank;
    long bucket = (long) SYLLABLES * SYLLABLES;
    int syllables = MIN_SYLLABLES;
    while (index >= bucket) {
      index -= bucket;
      bucket *= SYLLABLES;
      syllables++;
    }
    return 2 * syllables;
  }
}
