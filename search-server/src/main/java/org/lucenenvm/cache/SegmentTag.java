package org.lucenenvm.cache;

/**
 * Identifies one segment state a cache entry was computed over (SPIRIT's segment-aware entries):
 * the entry is valid for that segment only while the segment exists; a deletion generation that
 * moved on means documents were deleted since (the entry then holds only if none of its hits was).
 *
 * @param partition the partition holding the segment
 * @param segmentId the engine's segment id (unique within its partition)
 * @param deletionGeneration the segment's deletion count when the entry was computed (deletions
 *     only grow while a segment exists)
 */
public record SegmentTag(int partition, long segmentId, long deletionGeneration) {}
