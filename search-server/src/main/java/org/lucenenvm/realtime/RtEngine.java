package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.QueryKeys;
import org.lucenenvm.cache.ResultCache;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.cache.ResultCacheStats;
import org.lucenenvm.store.NvmDirectory;

/**
 * The real-time search engine: documents are searchable as soon as {@link #add} returns, with no
 * refresh, while each partition's background pipeline turns them into Lucene segments in DRAM,
 * copies those to the NVM directory and merges them there.
 *
 * <pre>{@code
 * RtSchema schema = RtSchema.builder().text("title").text("body").keyword("lang").build();
 * try (RtEngine engine = RtEngine.open(nvmDirectory, RtEngineConfig.defaults(schema))) {
 *   engine.add(new RtDocument("42", Map.of("title", "hello", "body", "hello world")));
 *   RtSearchResult top =
 *       engine.search(RtSearchRequest.of(new TermQuery(new Term("body", "hello")), 10));
 *   try (RtSnapshot s = engine.acquireSnapshot()) { // or any Lucene query on a snapshot
 *     s.searcher().count(MatchAllDocsQuery.INSTANCE);
 *   }
 * }
 * }</pre>
 *
 * <p>With {@link RtEngineConfig#partitions()} N &gt; 1 the documents are split into N partitions
 * (SPIRIT's executors) by {@code floorMod(id.hashCode(), N)}, each with its own table, lock and
 * pipeline, in namespaces {@code p<i>.} of the NVM directory; one partition uses the directory
 * itself (unless the directory records a partition count). Every query, whatever N, runs on one
 * {@link RtSnapshot}: one searcher over all partitions, so statistics are global and computed
 * once per query, and with a query executor each partition is searched as one slice in parallel.
 *
 * <p>Writes ({@link #add}, {@link #update}, {@link #delete}) may come from any thread; they are
 * analyzed in the caller's thread and applied one at a time per partition. Queries never block
 * writes and never take a lock. The partition count is recorded in {@value #PARTITIONS_FILE};
 * reopening with another count is refused, as documents would be routed to the wrong partition.
 * That file is: Header ({@link CodecUtil#writeHeader CodecHeader}, codec {@value #CODEC}, version
 * 0), PartitionCount ({@link org.apache.lucene.store.DataOutput#writeVInt VInt}), Footer ({@link
 * CodecUtil#writeFooter CodecFooter}).
 */
public final class RtEngine implements Closeable {
  static final String PARTITIONS_FILE = "rt.partitions";
  private static final String CODEC = "LuceneNvmRtPartitions";

  private final RtEngineConfig config;
  private final DocumentInverter inverter;
  private final PartitionLifecycle[] lifecycles;
  private final Partition[] partitions;
  private final Executor queryExecutor;
  private final Directory nvm;
  private final NvmSpace space;
  private final CachedSearch cachedSearch;

  private RtEngine(
      RtEngineConfig config,
      DocumentInverter inverter,
      PartitionLifecycle[] lifecycles,
      Executor executor,
      Directory nvm,
      NvmSpace space,
      ResultCache cache) {
    this.config = config;
    this.nvm = nvm;
    this.space = space;
    this.cachedSearch = cache == null ? null : new CachedSearch(cache);
    this.inverter = inverter;
    this.lifecycles = lifecycles;
    this.partitions = new Partition[lifecycles.length];
    for (int i = 0; i < lifecycles.length; i++) {
      partitions[i] = lifecycles[i].partition();
    }
    this.queryExecutor = executor;
  }

  /**
   * Opens an engine whose queries run in the caller's thread; see {@link #open(Directory,
   * RtEngineConfig, Executor)}.
   */
  public static RtEngine open(Directory nvm, RtEngineConfig config) throws IOException {
    return open(nvm, config, null);
  }

  /**
   * Opens an engine with NVM tier {@code nvm}; see {@link DurabilityMode} for what it finds and
   * refuses. Throws {@link LockObtainFailedException} while another engine has {@code nvm} open.
   * {@code queryExecutor} (may be null, and stays the caller's) searches the partitions of a query
   * in parallel. In {@link DurabilityMode#CRASH_CONSISTENT} mode {@code nvm} must be an {@link
   * NvmDirectory} (each partition's ingest log is a region of its pool); opening replays the logs,
   * and {@link #recoveries()} says what it did.
   *
   * @throws CorruptIngestLogException if an acknowledged ingest log record is damaged (naming the
   *     pool, offset and record); nothing is skipped
   */
  public static RtEngine open(Directory nvm, RtEngineConfig config, Executor queryExecutor)
      throws IOException {
    if (config.mode() == DurabilityMode.CRASH_CONSISTENT && !(nvm instanceof NvmDirectory)) {
      throw new IllegalArgumentException(
          "CRASH_CONSISTENT mode keeps its ingest log in the NVM pool and needs an NvmDirectory, got "
              + nvm
              + "; use GRACEFUL or VOLATILE mode on other directories");
    }
    int count = config.partitions();
    boolean namespaced = checkPartitionCount(nvm, count);
    DocumentInverter inverter =
        new DocumentInverter(config.schema(), config.analyzer(), config.similarity());
    NvmSpace space = NvmSpace.of(nvm, config.floodStage());
    PartitionLifecycle[] lifecycles = new PartitionLifecycle[count];
    try {
      for (int i = 0; i < count; i++) {
        PartitionLifecycle.LogFile logFile =
            nvm instanceof NvmDirectory pool
                ? new PartitionLifecycle.LogFile(
                    pool, (namespaced ? "p" + i + "." : "") + PartitionLifecycle.LOG_NAME)
                : null;
        lifecycles[i] =
            PartitionLifecycle.open(
                partitionDirectory(nvm, i, namespaced), config, i, logFile, inverter, space);
      }
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(lifecycles);
      throw e;
    }
    ResultCache cache = null;
    try {
      cache = ResultCaches.open(nvm, config.cache());
      long[][] epochs =
          cache != null && config.cache().tier() == ResultCacheSettings.Tier.NVM
              ? EpochFile.read(nvm, count)
              : null;
      EpochFile.delete(nvm); // applies only to the open right after the close that wrote it
      for (int i = 0; i < count; i++) {
        lifecycles[i]
            .partition()
            .startEpoch(config.statisticsLagSegments(), epochs == null ? null : epochs[i]);
      }
      RtEngine engine =
          new RtEngine(config, inverter, lifecycles, queryExecutor, nvm, space, cache);
      engine.startEpoch();
      return engine;
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(lifecycles);
      IOUtils.closeWhileHandlingException(cache);
      throw e;
    }
  }

  /**
   * Starts the statistics epoch (the first table views) and, with a cache, drops the entries that
   * do not match the segments just opened: nothing computed over segments since merged, lost in a
   * crash or with other deletions is ever served.
   */
  private void startEpoch() throws IOException {
    try (RtSnapshot snapshot = acquireSnapshot()) {
      if (cachedSearch != null) {
        List<RtSnapshot.SnapshotSegment> segments = snapshot.segments();
        cachedSearch
            .cache()
            .retain(entry -> SegmentTags.sameWithoutNewDeletions(entry.segments(), segments));
      }
    }
  }

  /** What opening each partition found and did (crash-consistent mode: what it replayed). */
  public List<RtRecovery> recoveries() {
    List<RtRecovery> all = new ArrayList<>(lifecycles.length);
    for (PartitionLifecycle l : lifecycles) {
      all.add(l.recovery());
    }
    return all;
  }

  private static Directory partitionDirectory(Directory nvm, int partition, boolean namespaced) {
    return namespaced ? NamespacedDirectory.partition(nvm, "p" + partition + ".") : nvm;
  }

  /** The partition count recorded in {@code nvm}, or 0 when none is. */
  private static int recordedPartitionCount(Directory nvm) throws IOException {
    if (!Arrays.asList(nvm.listAll()).contains(PARTITIONS_FILE)) {
      return 0;
    }
    try (ChecksumIndexInput in = nvm.openChecksumInput(PARTITIONS_FILE)) {
      CodecUtil.checkHeader(in, CODEC, 0, 0);
      int stored = in.readVInt();
      CodecUtil.checkFooter(in);
      return stored;
    }
  }

  /**
   * Checks {@code count} against the recorded count (recording it for a new partitioned index);
   * returns whether partitions live in namespaces {@code p<i>.} (any recorded count) rather than in
   * the directory itself (an unrecorded single partition).
   */
  private static boolean checkPartitionCount(Directory nvm, int count) throws IOException {
    int stored = recordedPartitionCount(nvm);
    if (stored != 0) {
      if (stored != count) {
        throw new IllegalArgumentException(
            nvm + " was created with " + stored + " partitions, cannot open it with " + count);
      }
      return true;
    }
    if (count == 1) {
      return false; // a one-partition index is the directory itself; nothing to record
    }
    try (IndexOutput out = nvm.createOutput(PARTITIONS_FILE, IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, CODEC, 0);
      out.writeVInt(count);
      CodecUtil.writeFooter(out);
    }
    nvm.sync(List.of(PARTITIONS_FILE));
    nvm.syncMetaData();
    return true;
  }

  /**
   * Accepts the loss recorded by a failed graceful close: every partition of the index in {@code
   * nvm} (refused by {@link #open} since) is marked as cleanly shut down with only the documents it
   * persisted, so the next open serves those. An explicit operator decision; does nothing to an
   * index that was not left incomplete.
   *
   * @return the number of acknowledged documents given up (0 when the index was not incomplete)
   */
  public static long acceptIncomplete(Directory nvm) throws IOException {
    int recorded = recordedPartitionCount(nvm);
    long givenUp = 0;
    for (int i = 0; i < Math.max(1, recorded); i++) {
      givenUp += PartitionLifecycle.acceptIncomplete(partitionDirectory(nvm, i, recorded != 0));
    }
    return givenUp;
  }

  /**
   * Discards the state of an index in {@code nvm} that {@link #open} refuses because it cannot be
   * verified: a crashed {@link DurabilityMode#GRACEFUL} engine's (manifest still IN_USE), or
   * segment files without manifest. Every such partition is marked as cleanly shut down with no
   * segment, so the next open starts it empty and deletes the files. An explicit operator
   * decision; does nothing to a partition that was not refused for that reason.
   *
   * @return the number of partitions whose state was discarded
   */
  public static int discardUnverifiable(Directory nvm) throws IOException {
    int recorded = recordedPartitionCount(nvm);
    int discarded = 0;
    for (int i = 0; i < Math.max(1, recorded); i++) {
      if (PartitionLifecycle.discardUnverifiable(partitionDirectory(nvm, i, recorded != 0))) {
        discarded++;
      }
    }
    return discarded;
  }

  /**
   * The pipeline stage each partition is in now ({@code flush}, {@code engrave}, {@code
   * checkpoint}, {@code commit}, {@code merge} or {@code idle}), comma-separated; for diagnostics
   * and the crash tests.
   */
  String pipelineActivity() {
    StringBuilder b = new StringBuilder();
    for (Partition p : partitions) {
      b.append(b.isEmpty() ? "" : ",").append(p.pipeline().activity());
    }
    return b.toString();
  }

  /** Number of partitions. */
  public int partitionCount() {
    return partitions.length;
  }

  /** The partition that owns {@code id}. */
  public int partitionOf(String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("document has no '" + RtSchema.ID_FIELD + "'");
    }
    return Math.floorMod(id.hashCode(), partitions.length);
  }

  /**
   * Adds a new document; it is visible to every query that starts after this returns. Refuses
   * (with {@link IllegalArgumentException}, before anything is indexed) a document without id, with
   * an id already in the index, with a field the schema does not declare, or with a term longer
   * than {@link org.apache.lucene.index.IndexWriter#MAX_TERM_LENGTH} bytes. Refuses it with {@link
   * FloodStageException} (nothing applied) while the NVM pool is at its {@link
   * RtEngineConfig#floodStage()} or a segment waits for room in it ({@link #poolUsage()}); {@link
   * #update} too, {@link #delete} never. In {@link DurabilityMode#CRASH_CONSISTENT} mode it refuses
   * a document whose log record is larger than the ingest log ({@link IllegalArgumentException}),
   * and throws {@link IngestLogFullException} (nothing applied; retry later) when the log stayed
   * full for {@link RtEngineConfig#logFullTimeout()}; {@link #update} and {@link #delete} too.
   */
  public void add(RtDocument doc) {
    partitions[partitionOf(doc == null ? null : doc.id())].write(inverter.invert(doc), false);
  }

  /**
   * Adds the document, replacing the one with the same id if any. Atomic for queries: a snapshot
   * sees the old version or the new one, never both or neither.
   */
  public void update(RtDocument doc) {
    partitions[partitionOf(doc == null ? null : doc.id())].write(inverter.invert(doc), true);
  }

  /** Deletes the document with {@code id}; returns whether there was one. */
  public boolean delete(String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("id must be non-empty");
    }
    return partitions[partitionOf(id)].delete(new BytesRef(id));
  }

  /**
   * A point-in-time view of every acknowledged document over all partitions; building it binds
   * each partition's shared table view and live tail, and does nothing else. Close it when done.
   */
  public RtSnapshot acquireSnapshot() throws IOException {
    ensureOpen();
    return RtSnapshot.of(
        partitions, config.similarity(), queryExecutor, config.statistics(), cachedSearch);
  }

  private void ensureOpen() {
    for (PartitionLifecycle l : lifecycles) {
      if (l.closed()) {
        throw new IllegalStateException("engine is closed");
      }
    }
  }

  /**
   * The search path of the engine, used alike by the server, the benchmarks and the tests: {@link
   * RtSnapshot#search} on a snapshot taken now (through the result cache when one is configured
   * and the request allows it). As with {@link IndexSearcher#search(Query, int)}, the total hit
   * count is exact up to 1,000 hits and may be a lower bound beyond; use {@link #count} for an
   * exact count.
   */
  public RtSearchResult search(RtSearchRequest request) throws IOException {
    try (RtSnapshot snapshot = acquireSnapshot()) {
      return snapshot.search(request);
    }
  }

  /** The cached search path, or null when the engine has no cache (for tests). */
  CachedSearch cachedSearch() {
    return cachedSearch;
  }

  /**
   * Drops the result cache's entry of {@code query} (its canonical form, {@link QueryKeys}), if
   * there is one, so that its next search computes it again (a miss); counted as an invalidation.
   * Returns whether an entry was dropped; false when the engine has no cache or the query cannot be
   * keyed.
   */
  public boolean evictCached(Query query) {
    if (cachedSearch == null) {
      return false;
    }
    Optional<QueryKey> key = QueryKeys.of(query);
    return key.isPresent() && cachedSearch.cache().invalidate(key.get());
  }

  /** The result cache's counters and sizes, or null when the engine has no cache. */
  public ResultCacheStats cacheStats() {
    return cachedSearch == null ? null : cachedSearch.cache().stats();
  }

  /** The exact number of live documents matching {@code query}. */
  public int count(Query query) throws IOException {
    try (RtSnapshot snapshot = acquireSnapshot()) {
      return snapshot.searcher().count(query);
    }
  }

  /** The live document with {@code id} as it was stored, or null; sees every acknowledged write. */
  public RtDocument get(String id) throws IOException {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("id must be non-empty");
    }
    ensureOpen();
    Partition[] owner = {partitions[partitionOf(id)]};
    try (RtSnapshot snapshot =
        RtSnapshot.of(owner, config.similarity(), null, StatisticsMode.PER_QUERY, null)) {
      TopDocs top = snapshot.searcher().search(new TermQuery(new Term(RtSchema.ID_FIELD, id)), 1);
      if (top.scoreDocs.length == 0) {
        return null;
      }
      RtHit hit = RtSnapshot.hit(snapshot.searcher().storedFields(), top.scoreDocs[0]);
      return new RtDocument(hit.id(), hit.fields());
    }
  }

  /**
   * Sizes, segment counts, segment states and pipeline work summed over all partitions ({@link
   * RtEngineStats#maxSegmentsPerPartition()} is the largest partition's count).
   */
  public RtEngineStats stats() throws IOException {
    ensureOpen();
    List<RtEngineStats> each = new ArrayList<>(partitions.length);
    for (Partition p : partitions) {
      each.add(p.stats());
    }
    return RtEngineStats.sum(each);
  }

  /** Stats of partition {@code partition} alone. */
  public RtEngineStats stats(int partition) throws IOException {
    ensureOpen();
    return partitions[partition].stats();
  }

  /** The descriptor tables of all partitions, partition by partition, oldest segment first. */
  public List<RtSegmentInfo> segments() {
    List<RtSegmentInfo> infos = new ArrayList<>();
    for (Partition p : partitions) {
      infos.addAll(p.segments());
    }
    return infos;
  }

  /** The descriptor table of partition {@code partition}, oldest segment first. */
  public List<RtSegmentInfo> segments(int partition) {
    return partitions[partition].segments();
  }

  /**
   * How full the engine's NVM pool is and whether adds and updates are refused because of it; a
   * few volatile reads, no lock.
   */
  public NvmUsage poolUsage() {
    return space.usage();
  }

  /** The configuration this engine runs with. */
  public RtEngineConfig config() {
    return config;
  }

  /**
   * Changes the NVM budget of every partition (each gets {@code bytes}), for example to let a
   * retried {@link #close} persist what a first one could not, or a segment waiting for room be
   * engraved (writes then resume).
   */
  public void setNvmBudgetBytes(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("NVM budget must be >= 0, got " + bytes);
    }
    for (Partition p : partitions) {
      p.tiers().accounts().setNvmBudget(bytes);
    }
    space.roomFreed();
  }

  /**
   * Closes the engine; writes are refused from the first call on. In {@link
   * DurabilityMode#GRACEFUL} mode first flushes and engraves every document and writes each
   * partition's manifest. If some documents cannot be persisted (NVM budget or directory full),
   * throws an {@link IOException} naming how many and why, deletes nothing already persisted,
   * records the index as incomplete in the manifest (so the next {@link #open} refuses it rather
   * than serve fewer documents than were acknowledged), and stays open for reads: after making room
   * (see {@link #setNvmBudgetBytes}) call {@code close()} again. In volatile mode discards the
   * segment files. In {@link DurabilityMode#CRASH_CONSISTENT} mode engraves the segments already
   * queued and records them; the last live segment's operations stay in the ingest log and are
   * replayed by the next open. Closing a closed engine does nothing; the query executor is the
   * caller's.
   */
  @Override
  public void close() throws IOException {
    boolean keepsCache =
        cachedSearch != null
            && config.cache().tier() == ResultCacheSettings.Tier.NVM
            && config.mode() != DurabilityMode.VOLATILE;
    if (keepsCache && !lifecycles[0].closed()) {
      long[][] epochs = new long[partitions.length][];
      for (int i = 0; i < partitions.length; i++) {
        epochs[i] = partitions[i].epochMembers();
      }
      EpochFile.write(nvm, epochs);
    }
    IOUtils.close(
        () -> IOUtils.close(lifecycles),
        () -> {
          if (cachedSearch != null && allClosed()) {
            cachedSearch.cache().close();
          }
        });
  }

  private boolean allClosed() {
    for (PartitionLifecycle l : lifecycles) {
      if (!l.closed()) {
        return false;
      }
    }
    return true;
  }
}
