/**
 * The real-time search engine, {@link org.lucenenvm.realtime.RtEngine}: a document is searchable
 * as soon as {@code add} returns, with no refresh, while a background pipeline per partition turns
 * documents into Lucene segments in DRAM, copies them into an NVM directory ({@link
 * org.lucenenvm.store.NvmDirectory}) and merges them there. Queries run on an {@link
 * org.lucenenvm.realtime.RtSnapshot}, an ordinary Lucene reader over every partition.
 *
 * <p>The design follows SPIRIT (A. Hasnat and S. Akram, "SPIRIT: Scalable and Persistent In-Memory
 * Indices for Real-Time Search", ACM TACO 2024), built on Lucene segments and codecs. Public types
 * are linked below; the others are package-private and named in {@code code} font.
 *
 * <h2>SPIRIT's concepts in this package</h2>
 *
 * <dl>
 *   <dt>Ingested (write-optimized) segment
 *   <dd>{@code LiveSegment}: the in-DRAM segment that absorbs new documents, read through {@code
 *       LiveLeafReader} up to its published document count; terms in a {@code LiveTermHash},
 *       postings written by {@code LiveTermPostings} into {@code LiveBytePool} slabs in the layout
 *       of {@code LiveBlockLayout}. Documents are analyzed by {@code DocumentInverter} in the
 *       writer's thread.
 *   <dt>Global descriptor table (GDT)
 *   <dd>{@code DescriptorTable}, one per partition, of {@code SegmentDescriptor} entries: the global
 *       pointer (GSP) to the version queries read, the NVM pointer (NSP) once engraved, and the
 *       state ({@link org.lucenenvm.realtime.SegmentState}: ingested, flushed, engraved, committed,
 *       merged). The D-lock and N-lock are reference counts on each {@code SegmentVersion}; a
 *       table version's readers are shared by its queries as a {@code TableView}. {@link
 *       org.lucenenvm.realtime.RtSegmentInfo} shows one row for monitoring.
 *   <dt>Indexing pipeline (ingest, flush, engrave, commit, merge)
 *   <dd>Ingestion runs in the writer's thread ({@code Partition}); {@code Pipeline} wires the rest
 *       onto two {@code PipelineStage} threads: an indexer running {@code Flusher} (a full live
 *       segment becomes a read-optimized Lucene segment in DRAM, written by {@code
 *       SegmentFlushWriter}), {@code Engraver} (bulk copy into the NVM tier, persisted) and {@code
 *       Committer} (queries switch to the NVM copy, the DRAM copy is freed), and a merger running
 *       {@code Merger} with {@code SizeTieredMergePolicy}. {@code Tiers} owns both tiers' files and
 *       {@code MemoryAccounts} the DRAM and NVM budgets.
 *   <dt>Engrave and commit (pointer update) policies
 *   <dd>{@link org.lucenenvm.realtime.PipelinePolicy}: eager engrave with lazy pointer update (the
 *       default), eager engrave with eager pointer update, lazy engrave with lazy pointer update.
 *   <dt>Indexing modes
 *   <dd>{@link org.lucenenvm.realtime.DurabilityMode}: volatile, graceful shutdown,
 *       crash-consistent.
 *   <dt>Transaction log (tLog), engrave and merge logs (eLog, mLog), recovery file
 *   <dd>{@link org.lucenenvm.realtime.IngestLog}: the NVM-resident circular log of operations,
 *       each persisted before it is acknowledged (format in {@code IngestLogFormat}, addressing in
 *       {@code LogRing}, records read back as {@link org.lucenenvm.realtime.LogRecord}). In place of
 *       the eLog and mLog, {@code Checkpointer} writes the {@code Manifest} crash-safely after every
 *       engrave and merge (the durable segments and the last operation they hold) and then
 *       reclaims the log; the manifest is also the recovery file of graceful shutdown.
 *   <dt>Recovery and replay
 *   <dd>{@code PartitionLifecycle} opens a partition: restores the manifest's segments, deletes
 *       files of engraves and merges a crash interrupted, and replays the log records after the
 *       durable sequence ({@code IngestLogRecovery} finds the log's valid end); {@link
 *       org.lucenenvm.realtime.RtRecovery} reports what it did.
 *   <dt>Executors
 *   <dd>{@code Partition}: one per document partition ({@link
 *       org.lucenenvm.realtime.RtEngineConfig#partitions()}), with its own table, lock and
 *       pipeline, in one JVM rather than one process each; every query sees all partitions
 *       through one {@link org.lucenenvm.realtime.RtSnapshot}.
 *   <dt>Per-segment deletion bit vectors
 *   <dd>{@code DeletedDocs} (copy on write), applied to Lucene segments by {@code
 *       LiveDocsCodecReader}.
 *   <dt>Query (result) cache over committed segments
 *   <dd>{@code CachedSearch} and {@code TailSearch} over {@link org.lucenenvm.cache.ResultCache},
 *       see {@link org.lucenenvm.cache}.
 * </dl>
 *
 * <h2>Beyond SPIRIT</h2>
 *
 * <ul>
 *   <li><b>Statistics epoch</b> ({@link org.lucenenvm.realtime.StatisticsMode#PER_EPOCH}): scoring
 *       statistics come from a fixed set of Lucene segments ({@code StatisticsEpoch}, summed by
 *       {@code CommittedStatistics} and {@code EpochStatistics}; kept across a graceful restart by
 *       {@code EpochFile}), so cached scores stay exact while documents are added.
 * </ul>
 *
 * <h2>Not implemented</h2>
 *
 * <ul>
 *   <li>SPIRIT's in-place (zero-copy) merge through mergeable posting lists, and its single merged
 *       persistent segment: merges here are Lucene's out-of-place merges, which write a new segment
 *       from its sources, and the partition keeps up to {@link
 *       org.lucenenvm.realtime.RtEngineConfig#maxSegments()} segments.
 * </ul>
 */
package org.lucenenvm.realtime;
