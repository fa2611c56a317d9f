package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * A real-time search engine over one document partition (SPIRIT's executor): documents are
 * searchable as soon as {@link #add} returns, with no refresh, while a background pipeline turns
 * them into Lucene segments in DRAM, copies those to the NVM directory and merges them there.
 *
 * <pre>{@code
 * RtSchema schema = RtSchema.builder().text("title").text("body").keyword("lang").build();
 * try (RtEngine engine = RtEngine.open(nvmDirectory, RtEngineConfig.defaults(schema))) {
 *   engine.add(new RtDocument("42", Map.of("title", "hello", "body", "hello world")));
 *   RtSearchResult top = engine.search(new TermQuery(new Term("body", "hello")), 10);
 *   try (RtSnapshot s = engine.acquireSnapshot()) { // or any Lucene query on a snapshot
 *     s.searcher().count(MatchAllDocsQuery.INSTANCE);
 *   }
 * }
 * }</pre>
 *
 * <p>Writes ({@link #add}, {@link #update}, {@link #delete}) may come from any thread; they are
 * analyzed in the caller's thread and applied one at a time. Queries never block writes. The NVM
 * tier is any Lucene {@link Directory}, shared by all segments through per-segment name prefixes
 * ({@code seg<id>_}); the engine owns every file with that prefix, the manifest, and holds the
 * directory's lock {@value #LOCK_NAME} while open, so a second engine cannot open (and, in volatile
 * mode, wipe) the same directory.
 */
public final class RtEngine implements Closeable {
  /** The lock an engine holds on its directory while open. */
  static final String LOCK_NAME = "rt.lock";

  private final RtEngineConfig config;
  private final Directory nvm;
  /** Held from open to a successful close: one engine per directory. */
  private final Lock lock;
  private final DocumentInverter inverter;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final DescriptorTable table = new DescriptorTable(writeLock);
  private final AtomicLong nextSegmentId;
  private final MemoryAccounts accounts;
  private final Pipeline pipeline;
  private volatile SegmentDescriptor active;
  /** Set when close() starts: writes are refused from then on. */
  private volatile boolean writesClosed;
  /** Set when close() succeeded: everything is released. */
  private volatile boolean closed;
  /** Whether close() has taken the live segment out of ingestion (guarded by this). */
  private boolean activeHandedOver;
  /** Whether close() has stopped the pipeline threads (guarded by this). */
  private boolean pipelineStopped;

  private RtEngine(
      RtEngineConfig config, Directory nvm, Lock lock, long nextSegmentId, String name) {
    this.config = config;
    this.nvm = nvm;
    this.lock = lock;
    this.inverter = new DocumentInverter(config.schema(), config.analyzer(), config.similarity());
    this.nextSegmentId = new AtomicLong(nextSegmentId);
    this.accounts = new MemoryAccounts(config.dramBudgetBytes(), config.nvmBudgetBytes());
    this.pipeline =
        new Pipeline(config, nvm, table, writeLock, this.nextSegmentId, accounts, name + "-");
  }

  /**
   * Opens an engine with NVM tier {@code nvm}; see {@link DurabilityMode} for what it finds and
   * refuses. Throws {@link LockObtainFailedException} while another engine has {@code nvm} open.
   */
  public static RtEngine open(Directory nvm, RtEngineConfig config) throws IOException {
    return open(nvm, config, "rt");
  }

  /** As {@link #open(Directory, RtEngineConfig)}, naming the pipeline threads {@code name-*}. */
  public static RtEngine open(Directory nvm, RtEngineConfig config, String name)
      throws IOException {
    Lock lock = obtainLock(nvm);
    try {
      return open(nvm, config, name, lock);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(lock);
      throw e;
    }
  }

  private static Lock obtainLock(Directory nvm) throws IOException {
    try {
      return nvm.obtainLock(LOCK_NAME);
    } catch (LockObtainFailedException e) {
      throw new LockObtainFailedException(
          nvm + " is in use by another open engine (" + LOCK_NAME + " is held)", e);
    }
  }

  private static RtEngine open(Directory nvm, RtEngineConfig config, String name, Lock lock)
      throws IOException {
    Manifest manifest = Manifest.find(nvm);
    if (config.mode() == DurabilityMode.VOLATILE) {
      if (manifest != null) {
        throw new IllegalStateException(
            nvm
                + " holds the "
                + Manifest.FILE_NAME
                + " of a GRACEFUL engine ("
                + manifest.status()
                + ", "
                + manifest.segments().size()
                + " segments); a VOLATILE engine would discard them: open it in GRACEFUL mode,"
                + " or delete "
                + Manifest.FILE_NAME
                + " and its seg* files to discard that index");
      }
      deleteUnlisted(nvm, Set.of());
      return start(new RtEngine(config, nvm, lock, 0, name), null);
    }
    checkRestorable(nvm, manifest);
    Set<Long> kept = new HashSet<>();
    if (manifest != null) {
      manifest.segments().forEach(s -> kept.add(s.id()));
    }
    deleteUnlisted(nvm, kept);
    long nextId = manifest == null ? 0 : manifest.nextSegmentId();
    RtEngine engine = new RtEngine(config, nvm, lock, nextId, name);
    try {
      if (manifest != null) {
        engine.restore(manifest);
      }
      Manifest.inUse(nextId).write(nvm);
      Manifest.reserveRoom(nvm);
    } catch (IOException | RuntimeException e) {
      engine.pipeline.keepFilesOnFree();
      IOUtils.closeWhileHandlingException(engine::retireAll);
      throw e;
    }
    return start(engine, manifest);
  }

  /** Refuses (naming the problem) a graceful index that would not serve every acknowledged doc. */
  private static void checkRestorable(Directory nvm, Manifest manifest) throws IOException {
    if (manifest == null) {
      if (!segmentFileIds(nvm).isEmpty()) {
        throw new IllegalStateException(
            nvm
                + " holds segment files but no shutdown manifest: the previous engine did not shut"
                + " down gracefully (crash or volatile mode); delete its seg* files to start empty");
      }
      return;
    }
    switch (manifest.status()) {
      case CLEAN -> {}
      case IN_USE ->
          throw new IllegalStateException(
              nvm
                  + ": the previous engine did not shut down gracefully (a crash, or a graceful"
                  + " close that could not even record what it persisted), so acknowledged"
                  + " documents may be missing; its segment files are kept; delete "
                  + Manifest.FILE_NAME
                  + " and its seg* files to start empty");
      case INCOMPLETE -> {
        Manifest.Missing missing = manifest.missing();
        throw new IllegalStateException(
            nvm
                + ": the last graceful close could not persist "
                + missing.docs()
                + " acknowledged documents (segments "
                + missing.segmentIds()
                + ": "
                + missing.reason()
                + "); the "
                + manifest.persistedDocs()
                + " documents of its "
                + manifest.segments().size()
                + " persisted segments are kept, but opening it would serve fewer documents than"
                + " were acknowledged. Call RtEngine.acceptIncomplete to serve only those, or"
                + " delete "
                + Manifest.FILE_NAME
                + " and its seg* files to start empty");
      }
    }
  }

  /**
   * Accepts the loss recorded by a failed graceful close: the index in {@code nvm} (refused by
   * {@link #open} since) is marked as cleanly shut down with only the documents it persisted, so
   * the next open serves those. An explicit operator decision; does nothing to an index that was
   * not left incomplete.
   *
   * @return the number of acknowledged documents given up (0 when the index was not incomplete)
   */
  public static long acceptIncomplete(Directory nvm) throws IOException {
    try (Lock lock = obtainLock(nvm)) {
      Manifest manifest = Manifest.find(nvm);
      if (manifest == null || manifest.status() != Manifest.Status.INCOMPLETE) {
        return 0;
      }
      new Manifest(Manifest.Status.CLEAN, manifest.nextSegmentId(), manifest.segments(), null)
          .write(nvm);
      return manifest.missing().docs();
    }
  }

  /** Creates the live segment and starts the pipeline (with the restored segments, if any). */
  private static RtEngine start(RtEngine engine, Manifest restored) {
    try {
      engine.writeLock.lock();
      try {
        engine.active = engine.newLiveSegment();
      } finally {
        engine.writeLock.unlock();
      }
      engine.pipeline.start();
      if (restored != null) {
        for (SegmentDescriptor d : engine.table.segments()) {
          if (d.state() != SegmentState.INGESTED) {
            engine.pipeline.submitRestored(d);
          }
        }
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
    return engine;
  }

  private static Set<Long> segmentFileIds(Directory dir) throws IOException {
    Set<Long> ids = new HashSet<>();
    for (String name : dir.listAll()) {
      Long id = segmentIdOf(name);
      if (id != null) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** The segment id in a file name {@code seg<id>_...}, or null for other files. */
  private static Long segmentIdOf(String name) {
    int end = name.indexOf('_');
    if (!name.startsWith("seg") || end <= 3) {
      return null;
    }
    try {
      return Long.parseLong(name.substring(3, end));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Deletes segment files of segments not in {@code kept}. */
  private static void deleteUnlisted(Directory dir, Set<Long> kept) throws IOException {
    boolean deleted = false;
    for (String name : dir.listAll()) {
      Long id = segmentIdOf(name);
      if (id != null && !kept.contains(id)) {
        dir.deleteFile(name);
        deleted = true;
      }
    }
    if (deleted) {
      dir.syncMetaData();
    }
  }

  private void restore(Manifest manifest) throws IOException {
    for (Manifest.Segment s : manifest.segments()) {
      NamespacedDirectory dir = NamespacedDirectory.segment(nvm, Pipeline.namespace(s.id()));
      DirectoryReader reader;
      try {
        reader = DirectoryReader.open(dir);
      } catch (IOException e) {
        throw new IOException(
            "segment " + s.id() + " listed in " + Manifest.FILE_NAME + " cannot be opened", e);
      }
      long bytes = SegmentFiles.bytes(dir);
      SegmentVersion version =
          SegmentVersion.stored(SegmentVersion.Tier.NVM, reader, dir, bytes, pipeline::freeNvm);
      if (version.maxDoc() != s.maxDoc()) {
        throw new IllegalStateException(
            "segment " + s.id() + " has " + version.maxDoc() + " docs, manifest: " + s.maxDoc());
      }
      SegmentDescriptor d =
          new SegmentDescriptor(s.id(), s.level(), s.maxDoc(), version, s.state());
      d.setDeletions(s.deletions());
      d.setIdFilter(IdFilter.of(version.segment()));
      accounts.adjustNvm(bytes);
      table.add(d);
    }
  }

  private SegmentDescriptor newLiveSegment() {
    LiveSegment segment = new LiveSegment(config.schema(), config.segmentSize());
    SegmentDescriptor d =
        new SegmentDescriptor(
            nextSegmentId.getAndIncrement(),
            0,
            config.segmentSize(),
            SegmentVersion.live(segment, pipeline::freeLive),
            SegmentState.INGESTED);
    table.add(d);
    return d;
  }

  /**
   * Adds a new document; it is visible to every query that starts after this returns. Refuses
   * (with {@link IllegalArgumentException}, before anything is indexed) a document without id, with
   * an id already in the index, with a field the schema does not declare, or with a term longer
   * than {@link org.apache.lucene.index.IndexWriter#MAX_TERM_LENGTH} bytes. Throws {@link
   * NvmFullException} once NVM is full.
   */
  public void add(RtDocument doc) {
    write(inverter.invert(doc), false);
  }

  /**
   * Adds the document, replacing the one with the same id if any. Atomic for queries: a snapshot
   * sees the old version or the new one, never both or neither.
   */
  public void update(RtDocument doc) {
    write(inverter.invert(doc), true);
  }

  /** Deletes the document with {@code id}; returns whether there was one. */
  public boolean delete(String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("id must be non-empty");
    }
    writeLock.lock();
    try {
      ensureWritable();
      table.beginWrite();
      try {
        return deleteLive(new BytesRef(id));
      } finally {
        table.endWrite();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
    }
  }

  private void write(InvertedDocument doc, boolean replace) {
    SegmentDescriptor frozen = null;
    writeLock.lock();
    try {
      ensureWritable();
      LiveSegment segment = active.global().liveSegment();
      table.beginWrite();
      try {
        if (replace) {
          deleteLive(doc.id());
        } else if (locate(doc.id()) != null) {
          throw new IllegalArgumentException(
              "document '" + doc.source().id() + "' already exists; use update to replace it");
        }
        segment.add(doc);
      } finally {
        table.endWrite();
      }
      if (segment.isFull()) {
        frozen = active;
        pipeline.freeze(frozen);
        active = newLiveSegment();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
    }
    if (frozen != null) {
      // Outside the lock: this writer waits for the flusher (backpressure), nobody else does.
      try {
        pipeline.enqueueFrozen(frozen);
      } catch (InterruptedException e) {
        throw new ThreadInterruptedException(e);
      }
    }
  }

  private void ensureWritable() {
    if (writesClosed) {
      throw new IllegalStateException("engine is closed");
    }
    pipeline.checkHealthy();
  }

  /** A segment and a doc id in it. */
  private record Location(SegmentDescriptor segment, int doc) {}

  private boolean deleteLive(BytesRef id) throws IOException {
    Location loc = locate(id);
    if (loc == null) {
      return false;
    }
    SegmentDescriptor d = loc.segment();
    d.setDeletions(DeletedDocs.delete(d.deletions(), loc.doc(), d.capacity()));
    return true;
  }

  /** Finds the live doc with {@code id}, newest segment first. Write lock held. */
  private Location locate(BytesRef id) throws IOException {
    List<SegmentDescriptor> segments = table.segments();
    for (int i = segments.size() - 1; i >= 0; i--) {
      SegmentDescriptor d = segments.get(i);
      IdFilter filter = d.idFilter();
      if (filter != null && !filter.mightContain(id)) {
        continue;
      }
      DeletedDocs deletions = d.deletions();
      SegmentVersion v = d.acquire();
      try {
        LeafReader reader = v.unfiltered();
        Terms terms = reader.terms(RtSchema.ID_FIELD);
        if (terms == null) {
          continue;
        }
        TermsEnum te = terms.iterator();
        if (!te.seekExact(id)) {
          continue;
        }
        PostingsEnum postings = te.postings(null, PostingsEnum.NONE);
        for (int doc = postings.nextDoc();
            doc != PostingsEnum.NO_MORE_DOCS;
            doc = postings.nextDoc()) {
          if (deletions == null || deletions.isLive(doc)) {
            return new Location(d, doc);
          }
        }
      } finally {
        v.decRef();
      }
    }
    return null;
  }

  /**
   * A point-in-time view of every acknowledged document; building it allocates objects and does
   * nothing else. Close it when done.
   */
  public RtSnapshot acquireSnapshot() throws IOException {
    if (closed) {
      throw new IllegalStateException("engine is closed");
    }
    return table.acquire(config.similarity());
  }

  /**
   * The top {@code k} hits of {@code query}, with their stored fields. As with {@link
   * IndexSearcher#search(Query, int)}, the total hit count is exact up to 1,000 hits and may be a
   * lower bound beyond; use {@link #count} for an exact count.
   */
  public RtSearchResult search(Query query, int k) throws IOException {
    try (RtSnapshot snapshot = acquireSnapshot()) {
      TopDocs top = snapshot.searcher().search(query, k);
      StoredFields stored = snapshot.searcher().storedFields();
      List<RtHit> hits = new ArrayList<>(top.scoreDocs.length);
      for (ScoreDoc sd : top.scoreDocs) {
        hits.add(hit(stored, sd));
      }
      return new RtSearchResult(top.totalHits, hits);
    }
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
    try (RtSnapshot snapshot = acquireSnapshot()) {
      TopDocs top = snapshot.searcher().search(new TermQuery(new Term(RtSchema.ID_FIELD, id)), 1);
      if (top.scoreDocs.length == 0) {
        return null;
      }
      RtHit hit = hit(snapshot.searcher().storedFields(), top.scoreDocs[0]);
      return new RtDocument(hit.id(), hit.fields());
    }
  }

  /** Loads the stored fields of one hit. */
  static RtHit hit(StoredFields stored, ScoreDoc sd) throws IOException {
    Document doc = stored.document(sd.doc);
    Map<String, String> fields = new LinkedHashMap<>();
    String id = null;
    for (IndexableField f : doc.getFields()) {
      if (RtSchema.ID_FIELD.equals(f.name())) {
        id = f.stringValue();
      } else {
        fields.put(f.name(), f.stringValue());
      }
    }
    return new RtHit(id, sd.score, fields);
  }

  /** Sizes, segment states and stage times. */
  public RtEngineStats stats() throws IOException {
    Map<SegmentState, Integer> states = new EnumMap<>(SegmentState.class);
    for (SegmentDescriptor d : table.segments()) {
      states.merge(d.state(), 1, Integer::sum);
    }
    long docs;
    try (RtSnapshot s = acquireSnapshot()) {
      docs = s.reader().numDocs();
    }
    LiveSegment current = active.global().liveSegment();
    long live = current == null ? 0 : current.ramBytesUsed();
    return new RtEngineStats(
        docs,
        states,
        accounts.dram(),
        accounts.peakDram(),
        accounts.largestDramSegment(),
        live + accounts.frozenLive(),
        accounts.nvm(),
        pipeline.stageStats());
  }

  /** The descriptor table, oldest segment first. */
  public List<RtSegmentInfo> segments() {
    List<RtSegmentInfo> infos = new ArrayList<>();
    for (SegmentDescriptor d : table.segments()) {
      infos.add(RtSegmentInfo.of(d));
    }
    return infos;
  }

  /** The configuration this engine runs with. */
  public RtEngineConfig config() {
    return config;
  }

  /**
   * Changes the NVM budget, for example to let a retried {@link #close} persist what a first one
   * could not. Ingestion stopped by {@link NvmFullException} stays stopped.
   */
  public void setNvmBudgetBytes(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("NVM budget must be >= 0, got " + bytes);
    }
    accounts.setNvmBudget(bytes);
  }

  /**
   * Closes the engine; writes are refused from the first call on. In {@link
   * DurabilityMode#GRACEFUL} mode first flushes and engraves every document and writes the
   * manifest. If some documents cannot be persisted (NVM budget or directory full), throws an
   * {@link IOException} naming how many and why, deletes nothing already persisted, records the
   * index as incomplete in the manifest (so the next {@link #open} refuses it rather than serve
   * fewer documents than were acknowledged), and stays open for reads: after making room (see
   * {@link #setNvmBudgetBytes}) call {@code close()} again. In volatile mode discards the segment
   * files. Closing a closed engine does nothing.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    writeLock.lock();
    try {
      writesClosed = true;
    } finally {
      writeLock.unlock();
    }
    try {
      if (config.mode() == DurabilityMode.GRACEFUL) {
        closeGracefully();
        closed = true;
      } else {
        closed = true;
        pipeline.abandon();
        try {
          retireAll();
          deleteUnlisted(nvm, Set.of());
        } finally {
          lock.close();
        }
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
  }

  private void closeGracefully() throws IOException, InterruptedException {
    if (!activeHandedOver) {
      LiveSegment last = active.global().liveSegment();
      if (last.published() > 0) {
        accounts.addFrozenLive(last.ramBytesUsed());
      } else {
        table.replace(List.of(active), null);
        active.retire();
      }
      activeHandedOver = true;
    }
    if (!pipelineStopped) {
      pipeline.drainAndStop();
      pipelineStopped = true;
    }
    Map<SegmentDescriptor, Exception> failed = pipeline.persistRemaining();
    Manifest.releaseRoom(nvm);
    List<Manifest.Segment> persisted = new ArrayList<>();
    for (SegmentDescriptor d : table.segments()) {
      if (d.nvm() != null) {
        SegmentState state =
            d.state() == SegmentState.MERGED ? SegmentState.MERGED : SegmentState.COMMITTED;
        persisted.add(
            new Manifest.Segment(d.id(), d.level(), state, d.nvm().maxDoc(), d.deletions()));
      }
    }
    if (failed.isEmpty()) {
      new Manifest(Manifest.Status.CLEAN, nextSegmentId.get(), persisted, null).write(nvm);
      pipeline.keepFilesOnFree();
      IOUtils.close(this::retireAll, lock);
      return;
    }
    throw incomplete(failed, persisted);
  }

  /**
   * Records a graceful close that could not persist {@code failed} in the manifest and returns the
   * exception saying so.
   */
  private IOException incomplete(
      Map<SegmentDescriptor, Exception> failed, List<Manifest.Segment> persisted) {
    long missingDocs = 0;
    List<Long> ids = new ArrayList<>();
    for (SegmentDescriptor d : failed.keySet()) {
      DeletedDocs deletions = d.deletions();
      missingDocs += d.global().maxDoc() - (deletions == null ? 0 : deletions.count());
      ids.add(d.id());
    }
    Exception cause = failed.values().iterator().next();
    Manifest manifest =
        new Manifest(
            Manifest.Status.INCOMPLETE,
            nextSegmentId.get(),
            persisted,
            new Manifest.Missing(missingDocs, ids, String.valueOf(cause.getMessage())));
    Exception manifestFailure = null;
    try {
      manifest.write(nvm);
    } catch (IOException | RuntimeException e) {
      manifestFailure = e;
    }
    IOException failure =
        new IOException(
            "graceful close failed: "
                + missingDocs
                + " acknowledged documents (segments "
                + ids
                + ") are not persisted in "
                + nvm
                + " ("
                + cause.getMessage()
                + "). Nothing persisted was deleted; "
                + (manifestFailure == null
                    ? Manifest.FILE_NAME + " records the index as INCOMPLETE"
                    : Manifest.FILE_NAME + " could not be rewritten and still says IN_USE")
                + ", so the next open refuses it. The engine stays open for reads: make room"
                + " (setNvmBudgetBytes, or free space in the NVM directory) and call close()"
                + " again to persist them.",
            cause);
    if (manifestFailure != null) {
      failure.addSuppressed(manifestFailure);
    }
    return failure;
  }

  private void retireAll() throws IOException {
    for (SegmentDescriptor d : table.segments()) {
      d.retire();
    }
  }
}
