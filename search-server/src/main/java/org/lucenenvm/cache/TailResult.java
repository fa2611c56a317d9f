package org.lucenenvm.cache;

import java.util.List;

/**
 * What a hit's search of the tail found, kept beside the query's entry so that the next hit
 * searches only the documents added since (SPIRIT's live segments are append-only): the top-k over
 * the first {@link TailSegment#docCount} documents of each tail segment, scored with the
 * statistics of one epoch. Kept on the heap only, never in the NVM tier: it names live segments,
 * which no restart keeps.
 *
 * <p>A tail result holds for a later search of the same query while the epoch is the same (same
 * segments, in order), each of its segments is still in the tail with at least the documents
 * covered and no new deletion, and its segments keep their relative order (so ties break by the
 * same document order as a search of the whole tail would), and the later search wants no hit
 * below this one's {@code floor}.
 *
 * @param epoch the epoch segments whose statistics scored the results
 * @param k how many hits were asked for (the results hold at most that many)
 * @param floor the score below which the covered documents were not all searched (the epoch
 *     top-k's lowest score, which no tail hit below it can enter): the results are the covered
 *     documents' top-k among those scoring at least {@code floor}, and their total is a lower bound;
 *     0 when every covered document was searched
 * @param segments the tail segments covered, in the order of the snapshot's leaves
 * @param results the top-k over the covered documents; a hit's segment is an index into {@code
 *     segments}
 */
public record TailResult(
    List<SegmentTag> epoch, int k, float floor, List<TailSegment> segments, ResultList results) {
  /**
   * Copies the lists and checks the floor is a score and every hit names a segment and lies in
   * its covered documents.
   */
  public TailResult {
    epoch = List.copyOf(epoch);
    segments = List.copyOf(segments);
    if (k < 1 || results.hits().size() > k) {
      throw new IllegalArgumentException(results.hits().size() + " tail hits for k=" + k);
    }
    if (!(floor >= 0) || floor == Float.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("tail floor " + floor + " is not a score");
    }
    for (ScoredDoc hit : results.hits()) {
      if (hit.segment() >= segments.size()
          || hit.doc() >= segments.get(hit.segment()).docCount()) {
        throw new IllegalArgumentException(
            "tail hit " + hit + " outside the " + segments.size() + " covered segments");
      }
    }
  }
}
