package org.lucenenvm.realtime;

import java.util.Arrays;

/**
 * Which Lucene segments of one partition make up its statistics epoch ({@link
 * StatisticsMode#PER_EPOCH}): the segments present when the epoch began. It advances (to every
 * Lucene segment present) when it is empty and segments appear, when a segment of it disappears (a
 * merge) or when more than {@code lagSegments} new segments (flushes, merges of non-members) are
 * outside it; with a lag of 0 every
 * change of the set of segments advances it. A pointer switch or a deletion keeps the set. After a
 * restart the epoch may be restored to the one in force at a graceful close (see {@link
 * EpochFile}) as long as all its segments still exist, so that the flush a close makes does not
 * end it (that segment counts as one left out). Segments outside the epoch are searched like the live
 * tail. Calls are serialized by the table's view builds.
 */
final class StatisticsEpoch {
  private final int lagSegments;
  private final long[] restored;
  private long[] setAtStart;
  private long[] members;
  private CommittedStatistics.Memo memo;

  /**
   * Where each Lucene segment of a view stands in the epoch.
   *
   * @param inEpoch whether each segment belongs to the epoch
   * @param memo the statistics remembered for the epoch, shared by its views
   */
  record Assignment(boolean[] inEpoch, CommittedStatistics.Memo memo) {}

  /**
   * An epoch that starts with the first view, restored to {@code restored} if not null, and leaves
   * out up to {@code lagSegments} new segments before advancing.
   */
  StatisticsEpoch(int lagSegments, long[] restored) {
    this.lagSegments = lagSegments;
    this.restored = restored == null ? null : sorted(restored);
  }

  /**
   * Whether each of {@code segmentIds} (the Lucene segments of a new view) belongs to the epoch,
   * and the epoch's statistics memo; starts a new epoch when the set of segments changed since the
   * current one started.
   */
  synchronized Assignment assign(long[] segmentIds) {
    long[] set = sorted(segmentIds);
    if (setAtStart == null) {
      members = restored != null && containsAll(set, restored) ? restored : set;
      memo = new CommittedStatistics.Memo();
    } else if (!Arrays.equals(set, setAtStart)) {
      if (members.length == 0
          || !containsAll(set, members)
          || set.length - members.length > lagSegments) {
        members = set;
        memo = new CommittedStatistics.Memo();
      }
    }
    setAtStart = set;
    boolean[] in = new boolean[segmentIds.length];
    for (int i = 0; i < segmentIds.length; i++) {
      in[i] = Arrays.binarySearch(members, segmentIds[i]) >= 0;
    }
    return new Assignment(in, memo);
  }

  /** The ids of the current epoch's segments (empty before the first view). */
  synchronized long[] members() {
    return members == null ? new long[0] : members.clone();
  }

  private static long[] sorted(long[] ids) {
    long[] copy = ids.clone();
    Arrays.sort(copy);
    return copy;
  }

  private static boolean containsAll(long[] sortedSet, long[] sortedSubset) {
    for (long id : sortedSubset) {
      if (Arrays.binarySearch(sortedSet, id) < 0) {
        return false;
      }
    }
    return true;
  }
}
