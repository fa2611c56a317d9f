package org.lucenenvm.bench;

/**
 * Frequency classes of query terms, by the share of documents whose body contains the term
 * (document frequency / documents), as in luceneutil's Low/Med/High term tasks.
 *
 * <ul>
 *   <li>{@link #HIGH}: 5 % to 50 % of documents (more common terms act as stop words and are left out)
 *   <li>{@link #MED}: 0.5 % to 5 %
 *   <li>{@link #LOW}: 0.05 % to 0.5 %, and in at least one document
 * </ul>
 */
public enum TermClass {
  LOW("Low", 0.0005, 0.005),
  MED("Med", 0.005, 0.05),
  HIGH("High", 0.05, 0.5);

  private final String label;
  private final double minShare;
  private final double maxShare;

  TermClass(String label, double minShare, double maxShare) {
    this.label = label;
    this.minShare = minShare;
    this.maxShare = maxShare;
  }

  /** Name part used in task categories, e.g. {@code High} in {@code TermHigh}. */
  public String label() {
    return label;
  }

  /** Whether a term in {@code docFreq} of {@code docs} documents belongs to this class. */
  public boolean contains(long docFreq, long docs) {
    double share = (double) docFreq / docs;
    boolean upperOk = this == HIGH ? share <= maxShare : share < maxShare;
    return docFreq >= 1 && share >= minShare && upperOk;
  }

  /** The classes' bounds as a tasks file's header states them: {@code Low [0.05%,0.5%), Med [0.5%,5%), High [5%,50%]}. */
  public static String bounds() {
    return "Low [0.05%,0.5%), Med [0.5%,5%), High [5%,50%]";
  }

  /** The class of a term, or {@code null} if it is in none. */
  public static TermClass of(long docFreq, long docs) {
    for (TermClass c : values()) {
      if (c.contains(docFreq, docs)) {
        return c;
      }
    }
    return null;
  }
}
