/**
 * The building blocks of the segment-aware result cache (issue 13); built and unit-tested, <b>not
 * yet wired into the engine or the server</b>.
 *
 * <h2>Design</h2>
 *
 * <ul>
 *   <li><b>Keys</b> ({@link org.lucenenvm.cache.QueryKeys}, {@link org.lucenenvm.cache.QueryKey}):
 *       a parsed query is normalized to operator, field and sorted terms (Kilrain-Mottram), so
 *       {@code a AND b} and {@code b AND a} share an entry (isomorphic match). A disjunction entry
 *       that keeps one part per term (that term's own top-k over the same segments) answers a
 *       single-term query exactly (Partial Type I, {@link
 *       org.lucenenvm.cache.QueryKey#termPartFor}). Queries that cannot be keyed exactly bypass the
 *       cache. The thesis's Partial Type II (answers of degraded quality) is deliberately absent.
 *   <li><b>Entries</b> ({@link org.lucenenvm.cache.CacheEntry}): SPIRIT-style, a top-k (document id
 *       and score) plus the total hit count, tagged with the segments it was computed over and
 *       their deletion generations ({@link org.lucenenvm.cache.SegmentTag}).
 *   <li><b>Storage</b> ({@link org.lucenenvm.cache.EntryStore} over a {@link
 *       org.lucenenvm.cache.TlsfAllocator}): a fixed region, DRAM or a pre-allocated NVM region,
 *       with O(1) allocation; entries are published by a slot store written last, behind persist
 *       barriers ({@link org.lucenenvm.cache.Persister}), so a restart or crash shows whole entries
 *       or none; a torn entry is dropped on open and a corrupt region is rebuilt empty with a
 *       warning.
 *   <li><b>Policies</b> ({@link org.lucenenvm.cache.CachePolicy}): {@link
 *       org.lucenenvm.cache.LruPolicy} and {@link org.lucenenvm.cache.DlirsPolicy}, with the
 *       inclusion threshold as an {@link org.lucenenvm.cache.AdmissionRule}.
 * </ul>
 *
 * <h2>Not wired yet</h2>
 *
 * The cache that joins these parts to the engine (look up the key, check the entry's segment tags
 * against the current segments, compute only the segments newer than the entry, merge, invalidate
 * entries whose segments were merged away or whose deletion generation changed), the server options
 * and the statistics waits for the engine's second design (issue 10). Two questions for that step:
 * the engine scores with index-wide statistics, so an entry's cached scores are exact only while
 * the statistics it was computed with hold (the tags would also need a statistics generation, or
 * cached scores must be recomputed); and the exactness of a cached answer must be proven by the
 * differential test the issue asks for.
 */
package org.lucenenvm.cache;
