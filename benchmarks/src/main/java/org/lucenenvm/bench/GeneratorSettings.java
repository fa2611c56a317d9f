package org.lucenenvm.bench;

/**
 * Parameters of the synthetic corpus; the same settings always give byte-identical output.
 *
 * @param docs number of documents
 * @param seed random seed
 * @param vocabularySize number of distinct synthetic words
 * @param zipfExponent exponent {@code s} of the Zipfian term distribution
 * @param meanBodyBytes mean body length in bytes (lengths are normal around it, sd a quarter of it)
 * @param tasksPerCategory number of distinct tasks written per category (fewer if a class has fewer)
 */
public record GeneratorSettings(
    long docs, long seed, int vocabularySize, double zipfExponent, int meanBodyBytes, int tasksPerCategory) {

  /** Checks the ranges. */
  public GeneratorSettings {
    if (docs < 1 || docs > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("docs must be in [1, 2^31): " + docs);
    }
    if (vocabularySize < 100) {
      throw new IllegalArgumentException("vocabulary size must be >= 100: " + vocabularySize);
    }
    if (meanBodyBytes < 16) {
      throw new IllegalArgumentException("mean body length must be >= 16 bytes: " + meanBodyBytes);
    }
    if (tasksPerCategory < 1) {
      throw new IllegalArgumentException("tasks per category must be >= 1: " + tasksPerCategory);
    }
  }
}
