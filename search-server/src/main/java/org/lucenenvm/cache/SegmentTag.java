package org.lucenenvm.cache;

/**
 * Identifies one segment state a cache entry was computed over (SPIRIT's segment-aware entries):
 * the entry is valid for that segment only while the segment exists with the same deletion
 * generation.
 *
 * @param segmentId the engine's segment id
 * @param deletionGeneration the segment's deletion generation when the entry was computed
 */
public record SegmentTag(long segmentId, long deletionGeneration) {}
