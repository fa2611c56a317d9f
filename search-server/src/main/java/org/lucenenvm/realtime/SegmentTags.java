package org.lucenenvm.realtime;

import java.util.ArrayList;
import java.util.List;
import org.lucenenvm.cache.SegmentTag;

/**
 * The segments a cached result was computed over ({@link SegmentTag}s of a cache entry or of a tail
 * result's epoch) against a snapshot's epoch segments.
 */
final class SegmentTags {
  private SegmentTags() {}

  /** Tags of {@code segments} as they are now (deletion counts included). */
  static List<SegmentTag> of(List<RtSnapshot.SnapshotSegment> segments) {
    List<SegmentTag> tags = new ArrayList<>(segments.size());
    for (RtSnapshot.SnapshotSegment segment : segments) {
      tags.add(new SegmentTag(segment.partition(), segment.id(), segment.deletionCount()));
    }
    return tags;
  }

  /** Whether {@code tags} name exactly {@code segments}: the same partitions and ids, in order. */
  static boolean same(List<SegmentTag> tags, List<RtSnapshot.SnapshotSegment> segments) {
    if (tags.size() != segments.size()) {
      return false;
    }
    for (int i = 0; i < tags.size(); i++) {
      SegmentTag tag = tags.get(i);
      RtSnapshot.SnapshotSegment segment = segments.get(i);
      if (tag.partition() != segment.partition() || tag.segmentId() != segment.id()) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code tags} name exactly {@code segments} with no deletion since. */
  static boolean sameWithoutNewDeletions(
      List<SegmentTag> tags, List<RtSnapshot.SnapshotSegment> segments) {
    if (!same(tags, segments)) {
      return false;
    }
    for (int i = 0; i < segments.size(); i++) {
      if (tags.get(i).deletionGeneration() != segments.get(i).deletionCount()) {
        return false;
      }
    }
    return true;
  }
}
