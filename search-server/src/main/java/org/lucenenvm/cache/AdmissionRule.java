package org.lucenenvm.cache;

/**
 * The inclusion threshold: whether a freshly computed result is worth caching. A result that was
 * cheaper to compute than a cache lookup and copy costs only takes room from better entries.
 */
@FunctionalInterface
public interface AdmissionRule {
  /** Admits every result. */
  AdmissionRule ALWAYS = (computeNanos, entryBytes) -> true;

  /**
   * Whether to cache a result that took {@code computeNanos} to compute and needs {@code
   * entryBytes} of cache storage.
   */
  boolean admits(long computeNanos, long entryBytes);

  /** Admits results that took at least {@code minComputeNanos} to compute. */
  static AdmissionRule minComputeNanos(long minComputeNanos) {
    if (minComputeNanos < 0) {
      throw new IllegalArgumentException(
          "inclusion threshold must be >= 0 ns, got " + minComputeNanos);
    }
    return (computeNanos, entryBytes) -> computeNanos >= minComputeNanos;
  }
}
