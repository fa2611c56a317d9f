package org.lucenenvm.cache;

/**
 * One segment of a {@link TailResult}: a segment searched at hit time (a live segment, or a Lucene
 * segment outside the statistics epoch) and how many of its documents the result covers. A live
 * segment only grows by appending documents, so the first {@code docCount} of them stay the same
 * documents while it is live.
 *
 * @param partition the partition holding the segment
 * @param segmentId the engine's segment id (unique within its partition)
 * @param live whether the segment was live (a live segment and the Lucene segment its flush makes
 *     are different segments here, even under one id)
 * @param docCount the documents covered: the segment's first {@code docCount}
 * @param deletionCount the segment's deleted documents when the result was computed
 */
public record TailSegment(
    int partition, long segmentId, boolean live, int docCount, long deletionCount) {
  /** Requires non-negative counts. */
  public TailSegment {
    if (docCount < 0 || deletionCount < 0) {
      throw new IllegalArgumentException(
          "tail segment " + segmentId + " with " + docCount + " docs, " + deletionCount + " deleted");
    }
  }
}
