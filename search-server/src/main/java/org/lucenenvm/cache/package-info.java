/**
 * The segment-aware result cache: keys, entries, storage and policies ({@link
 * org.lucenenvm.cache.ResultCache}); the engine's {@code org.lucenenvm.realtime.CachedSearch}
 * checks entries against its snapshots, searches the tail and merges, under the engine's epoch
 * statistics ({@code StatisticsMode.PER_EPOCH}), which keep cached scores exact across adds.
 *
 * <h2>Design</h2>
 *
 * <ul>
 *   <li><b>Keys</b> ({@link org.lucenenvm.cache.QueryKeys}, {@link org.lucenenvm.cache.QueryKey}):
 *       a parsed query is normalized to an operator and its sorted (field, term) pairs
 *       (Kilrain-Mottram, with a field per term), so {@code a AND b} and {@code b AND a} share an
 *       entry (isomorphic match), as do the parser's forms of a plain word over several default
 *       fields. A disjunction entry
 *       that keeps one part per term (that term's own top-k over the same segments) answers a
 *       single-term query exactly (Partial Type I, {@link
 *       org.lucenenvm.cache.QueryKey#termPartFor}); the parts are computed from a disjunction's
 *       second recent miss on ({@link org.lucenenvm.cache.ResultCache#miss}), not for a query seen
 *       once, nor for one whose entry was evicted in between (a cache too small to keep it). Queries that cannot be keyed exactly bypass the
 *       cache. The thesis's Partial Type II (answers of degraded quality) is deliberately absent.
 *   <li><b>Entries</b> ({@link org.lucenenvm.cache.CacheEntry}): SPIRIT-style, a top-k (segment, doc
 *       and score) plus the total hit count, tagged with the segments it was computed over and
 *       their deletion generations ({@link org.lucenenvm.cache.SegmentTag}).
 *   <li><b>Tail results</b> ({@link org.lucenenvm.cache.TailResult}): beside an entry, on the
 *       heap, what the query's last search of the tail (live segments, segments outside the
 *       epoch) found over how many documents of each ({@link org.lucenenvm.cache.TailSegment})
 *       and above which score (the epoch part's k-th, once the epoch holds more matches than are
 *       counted exactly); live segments only grow by appending, so the next hit searches only the
 *       documents added since.
 *   <li><b>Storage</b> ({@link org.lucenenvm.cache.EntryStore} over a {@link
 *       org.lucenenvm.cache.TlsfAllocator}): a fixed region, DRAM or a pre-allocated NVM region,
 *       with O(1) allocation; entries are published by a slot store written last, behind persist
 *       barriers ({@link org.lucenenvm.cache.Persister}), so a restart or crash shows whole entries
 *       or none; a torn entry is dropped on open and a corrupt region is rebuilt empty with a
 *       warning.
 *   <li><b>Policies</b> ({@link org.lucenenvm.cache.CachePolicy}): {@link
 *       org.lucenenvm.cache.LruPolicy}, {@link org.lucenenvm.cache.DlirsPolicy} and the
 *       cost-aware {@link org.lucenenvm.cache.GdsfPolicy} (each entry records what its result took
 *       to compute), with the inclusion threshold as an {@link
 *       org.lucenenvm.cache.AdmissionRule}.
 * </ul>
 *
 * <h2>Storage tiers</h2>
 *
 * {@link org.lucenenvm.cache.ResultCache#inDram} keeps entries as heap objects; {@link
 * org.lucenenvm.cache.ResultCache#inRegion} keeps them in an {@link
 * org.lucenenvm.cache.EntryStore} over a region of the NVM pool and recovers them on open. Entries
 * hold documents as (segment index, doc) pairs tagged with (partition, segment id, deletion
 * count), so the engine can tell whether an entry still holds for its current segments.
 */
package org.lucenenvm.cache;
