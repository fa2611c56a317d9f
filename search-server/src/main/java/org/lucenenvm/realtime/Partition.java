package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * One document partition (SPIRIT's executor) and the one owner of its state: the descriptor table,
 * the lock its writers take, its {@link Tiers} and its {@link Pipeline}. Writes are applied one at
 * a time under the lock; queries never take it. The pipeline sees the table only through a {@link
 * PartitionTable} (which also holds the segment-id counter and the condition writers wait on for a
 * segment slot), the {@link Checkpointer} only through a {@link Checkpointer.View} read under the
 * lock. Opening, recovery and closing are {@link PartitionLifecycle}'s.
 *
 * <p>In {@link DurabilityMode#CRASH_CONSISTENT} mode every write is also recorded in the
 * partition's {@link IngestLog}: room for the record is reserved before the lock is taken (so a
 * full log never blocks the pipeline, which needs the lock briefly to record its progress), the
 * record is written under the lock right before the write is applied (log order is apply order),
 * and the write returns once the record is durable, after the lock is released (group commit). A
 * write refused by validation (an add of an existing id, a delete of an absent id) logs nothing.
 * The live segment is frozen early once its operations take {@code logBytes / (queueCapacity +
 * 2)} of the log, so the log never holds more than the pipeline can queue; deletes alone (the live
 * segment holds no document) ask the pipeline for a checkpoint instead, which reclaims them.
 *
 * <p>Adds and updates are refused with {@link FloodStageException} before anything is reserved or
 * applied while the pool refuses writes for want of room ({@link NvmSpace}); deletes never are, and
 * while writes are refused each delete asks the merger to reclaim the room of deleted documents.
 *
 * <p>The table never holds more than {@link RtEngineConfig#maxSegments()} segments while merging
 * can make room: a full live segment is replaced by a new one only when the table has a free slot;
 * otherwise it stays the active (searchable) segment and the next add or delete waits, without the
 * lock, until the merger signals that it freed a slot.
 */
final class Partition {
  private static final byte[] NO_DOCUMENT = new byte[0];
  /** How often a writer waiting for a segment slot checks the pipeline's health unsignalled. */
  private static final long STALL_CHECK_MILLIS = 100;
  private static final String LOG_SETTINGS =
      "; the log's size is RtEngineConfig.logBytes (server: --log-size)";

  private final RtEngineConfig config;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final DescriptorTable table = new DescriptorTable();
  /**
   * The table as the pipeline changes it; writers waiting for a free segment slot wait there
   * ({@link PartitionTable#awaitSegmentRoom}), woken whenever a merge freed slots or was refused.
   */
  private final PartitionTable pipelineTable;
  /** Time writers waited for a segment slot (written under writeLock). */
  private volatile long segmentWaitNanos;
  private final Tiers tiers;
  private final Pipeline pipeline;
  /** The ingest log (crash-consistent mode; the lifecycle owns and closes it), or null. */
  private final IngestLog log;
  private final long logBytesPerSegment;
  /** Writes the manifest after every engrave and merge (crash-consistent mode), or null. */
  private final Checkpointer checkpointer;
  /** The live segment taking adds (guarded by writeLock). */
  private SegmentDescriptor active;
  /** Log bytes of the operations applied since {@link #active} took over (guarded by writeLock). */
  private long activeLogBytes;
  /** Sequence number of the last operation applied (guarded by writeLock). */
  private long lastApplied;
  /** Set when close starts: writes are refused from then on (written under writeLock). */
  private volatile boolean writesClosed;

  /**
   * A partition; with an ingest log ({@code log} non-null) it records every write there and its
   * {@link Checkpointer}, starting from {@code durableSequence} (what the manifest found at open
   * recorded), records the pipeline's progress after every engrave and merge.
   */
  Partition(
      RtEngineConfig config,
      Tiers tiers,
      long nextSegmentId,
      String threadPrefix,
      IngestLog log,
      long durableSequence) {
    this.config = config;
    this.tiers = tiers;
    this.log = log;
    this.logBytesPerSegment =
        log == null ? Long.MAX_VALUE : Math.max(1, log.capacity() / (config.queueCapacity() + 2));
    this.pipelineTable = new PartitionTable(table, writeLock, nextSegmentId);
    this.checkpointer =
        log == null
            ? null
            : new Checkpointer(tiers.nvm(), log, this::checkpointView, durableSequence);
    this.pipeline =
        new Pipeline(
            config,
            tiers,
            pipelineTable,
            threadPrefix,
            checkpointer == null ? Pipeline.Checkpoint.NONE : checkpointer);
  }

  /** What the checkpointer records: the table, read under the write lock (ingest log only). */
  private Checkpointer.View checkpointView() {
    writeLock.lock();
    try {
      return Checkpointer.View.of(
          table.segments(), lastApplied, pipelineTable.nextSegmentId(), log.lastWritten());
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Binds a consistent snapshot of the table for a query (see {@link DescriptorTable#bind}); takes
   * no lock.
   */
  TableView.Bound bind() throws IOException {
    return table.bind();
  }

  /** Starts the statistics epoch; see {@link DescriptorTable#startEpoch}. */
  void startEpoch(int lagSegments, long[] restored) {
    table.startEpoch(lagSegments, restored);
  }

  /** The ids of the current statistics epoch's segments. */
  long[] epochMembers() {
    return table.epochMembers();
  }

  /** The current segments, oldest first. */
  List<SegmentDescriptor> descriptors() {
    return table.segments();
  }

  /** Puts a segment the manifest lists back into the table (open, before {@link #start}). */
  void restore(SegmentDescriptor d) {
    table.add(d);
  }

  /**
   * Removes the live segment {@link #closeWrites} returned, which holds no document (graceful
   * close); the caller retires it.
   */
  void removeEmptyActive(SegmentDescriptor last) {
    table.replace(List.of(last), null);
  }

  Tiers tiers() {
    return tiers;
  }

  Pipeline pipeline() {
    return pipeline;
  }

  /** Records the NVM tier's state in the manifest now (crash-consistent mode; else nothing). */
  void checkpoint() throws IOException {
    if (checkpointer != null) {
      checkpointer.record();
    }
  }

  /** The id the next segment gets (recorded in the manifest). */
  long nextSegmentId() {
    return pipelineTable.nextSegmentId();
  }

  /** Creates the first live segment and starts the pipeline. */
  void start() {
    writeLock.lock();
    try {
      active = newLiveSegment();
    } finally {
      writeLock.unlock();
    }
    pipeline.start();
    pipeline.mergeLater(); // restored segments may be over the segment limit
  }

  private SegmentDescriptor newLiveSegment() {
    LiveSegment segment = new LiveSegment(config.schema(), config.segmentSize());
    SegmentDescriptor d =
        new SegmentDescriptor(
            pipelineTable.newSegmentId(),
            0,
            config.segmentSize(),
            tiers.live(segment),
            SegmentState.INGESTED);
    table.add(d);
    activeLogBytes = 0;
    return d;
  }

  /** Room reserved in the ingest log for one record, until it is written or released. */
  private final class Reservation {
    final LogOperation operation;
    final String id;
    final byte[] document;
    final long space;
    boolean written;

    Reservation(LogOperation operation, String id, byte[] document) throws IOException {
      this.operation = operation;
      this.id = id;
      this.document = document;
      this.space = log == null ? 0 : log.reserve(id, document);
    }

    /** Writes the record (write lock held); returns its sequence number (0 without log). */
    long write() throws IOException {
      if (log == null) {
        return 0;
      }
      long sequence = log.write(space, operation, id, document);
      written = true;
      return sequence;
    }

    /** Gives the room back unless the record was written. */
    void releaseUnwritten() {
      if (log != null && !written) {
        log.release(space);
      }
    }
  }

  /**
   * Reserves log room for a write; a full log is reported as {@link IngestLogFullException} (retry
   * later), a record larger than the log as {@link IllegalArgumentException}, both naming the
   * settings. A failed pipeline is reported first: it would never free log room.
   */
  private Reservation reserve(LogOperation operation, String id, byte[] document) {
    ensureWritable();
    try {
      return new Reservation(operation, id, document);
    } catch (IngestLogFullException e) {
      throw new IngestLogFullException(
          e.getMessage() + "; retry the write once the pipeline made room" + LOG_SETTINGS
              + ", the wait RtEngineConfig.logFullTimeout (server: --log-full-timeout)",
          e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + LOG_SETTINGS, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Applies one analyzed document: an add (refused when the id exists) or, with {@code replace},
   * an update; with an ingest log returns once its record is durable. A plain add is one
   * publication of the live segment and needs no seqlock.
   */
  void write(InvertedDocument doc, boolean replace) {
    ensureWritable();
    tiers.space().checkWritable();
    LogOperation operation = replace ? LogOperation.UPDATE : LogOperation.ADD;
    Reservation reservation =
        log == null
            ? null
            : reserve(operation, doc.document().id(), doc.logged());
    SegmentDescriptor frozenBefore = null;
    SegmentDescriptor frozen = null;
    long sequence;
    writeLock.lock();
    try {
      ensureWritable();
      frozenBefore = rollWhenRoom();
      if (!replace && locate(doc.id()) != null) {
        throw new IllegalArgumentException(
            "document '" + doc.document().id() + "' already exists; use update to replace it");
      }
      sequence = reservation == null ? 0 : reservation.write();
      apply(operation, doc);
      frozen = applied(sequence, reservation == null ? 0 : reservation.space);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
      if (reservation != null) {
        reservation.releaseUnwritten();
      }
      awaitIndexer(frozenBefore);
    }
    awaitIndexer(frozen);
    awaitDurable(sequence);
  }

  /** Deletes the document with {@code id}; returns whether there was one. */
  boolean delete(BytesRef id) {
    Reservation reservation =
        log == null ? null : reserve(LogOperation.DELETE, id.utf8ToString(), NO_DOCUMENT);
    SegmentDescriptor frozenBefore = null;
    SegmentDescriptor frozen;
    long sequence;
    writeLock.lock();
    try {
      ensureWritable();
      // Like an add, a delete waits for a segment slot when the live segment needs freezing:
      // otherwise deletes would pile up in the log behind a live segment that cannot be frozen.
      frozenBefore = rollWhenRoom();
      Location location = locate(id);
      if (location == null) {
        return false;
      }
      sequence = reservation == null ? 0 : reservation.write();
      deleteAt(location);
      frozen = applied(sequence, reservation == null ? 0 : reservation.space);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
      if (reservation != null) {
        reservation.releaseUnwritten();
      }
      awaitIndexer(frozenBefore);
    }
    awaitIndexer(frozen);
    awaitDurable(sequence);
    if (tiers.space().refusesWrites()) {
      pipeline.mergeLater(); // reclaims the room of deleted documents
    }
    return true;
  }

  /**
   * Applies ingest log record {@code record} again at recovery ({@code doc}: its analyzed
   * document, null for a delete), through the same steps as the write that logged it. Deletes and
   * updates are idempotent: the manifest's deletions may already hold deletes logged after its
   * DurableSequence, so a delete or the delete half of an update may find nothing to delete. An
   * add finds no live document with its id (the add that logged it found none, and the manifest
   * holds only segments with earlier operations); if it does, the log and segments disagree and
   * recovery stops.
   */
  void replay(LogRecord record, InvertedDocument doc) throws IOException {
    SegmentDescriptor frozenBefore = null;
    SegmentDescriptor frozen;
    writeLock.lock();
    try {
      ensureWritable();
      if (record.operation() != LogOperation.DELETE) {
        frozenBefore = rollWhenRoom();
      }
      long space =
          IngestLogFormat.recordSpace(new BytesRef(record.id()).length, record.document().length);
      switch (record.operation()) {
        case ADD -> {
          if (locate(doc.id()) != null) {
            throw new CorruptIngestLogException(
                "replaying ingest log record " + record.sequence() + ": add of id '" + record.id()
                    + "', which the durable segments already hold; the manifest and the log disagree");
          }
          apply(LogOperation.ADD, doc);
        }
        case UPDATE -> apply(LogOperation.UPDATE, doc);
        case DELETE -> {
          Location location = locate(new BytesRef(record.id()));
          if (location != null) {
            deleteAt(location);
          }
        }
      }
      frozen = applied(record.sequence(), space);
    } finally {
      writeLock.unlock();
      awaitIndexer(frozenBefore);
    }
    awaitIndexer(frozen);
  }

  /** Adds {@code doc} to the live segment, deleting its old version first for an update. */
  private void apply(LogOperation operation, InvertedDocument doc) throws IOException {
    LiveSegment segment = active.global().liveSegment();
    if (operation == LogOperation.UPDATE) {
      table.beginWrite();
      try {
        Location old = locate(doc.id());
        if (old != null) {
          deleteAt(old);
        }
        segment.add(doc);
      } finally {
        table.endWrite();
      }
    } else {
      segment.add(doc);
    }
  }

  /**
   * Bookkeeping after operation {@code sequence} (of {@code logBytes} in the log) was applied:
   * freezes the live segment when it is full or holds its share of the log, and returns it (else
   * null). While the live segment holds no document its operations are deletes, which no freeze
   * makes durable: once they take a share of the log, the pipeline is asked for a checkpoint,
   * which records them in the manifest's deletions and reclaims their records. Write lock held.
   */
  private SegmentDescriptor applied(long sequence, long logBytes) {
    activeLogBytes += logBytes;
    lastApplied = sequence;
    if (activeLogBytes >= logBytesPerSegment && active.global().liveSegment().published() == 0) {
      activeLogBytes = 0;
      pipeline.checkpointLater();
      return null;
    }
    return activeNeedsRoll() && hasSegmentRoom() ? roll() : null;
  }

  /** Whether the active segment is full or holds its share of the log. Write lock held. */
  private boolean activeNeedsRoll() {
    LiveSegment segment = active.global().liveSegment();
    return segment.isFull() || (activeLogBytes >= logBytesPerSegment && segment.published() > 0);
  }

  /**
   * Freezes the active segment, hands it to the indexer and starts a new one; returns the frozen
   * one. Lock held: segments reach the indexer in the order they are frozen (a hand-over outside
   * the lock let a writer that froze a later segment queue it first, and a checkpoint then recorded
   * the earlier one's operations as durable while only DRAM held them).
   */
  private SegmentDescriptor roll() {
    SegmentDescriptor frozen = active;
    frozen.setLastSequence(lastApplied);
    tiers.accounts().addFrozenLive(frozen.global().liveSegment().ramBytesUsed());
    active = newLiveSegment();
    pipeline.enqueueFrozen(frozen);
    return frozen;
  }

  private boolean hasSegmentRoom() {
    return table.segments().size() < config.maxSegments() || pipeline.cannotMakeSegmentRoom();
  }

  /**
   * When the active segment needs a roll (it was left full for want of a slot), waits, releasing
   * the lock meanwhile, until the merger signals that it freed one, then rolls; returns the
   * frozen segment or null. Lock held. The wait is timed only so that a pipeline that fails or
   * stops without a signal is noticed ({@link #ensureWritable}, {@link #hasSegmentRoom}).
   */
  private SegmentDescriptor rollWhenRoom() {
    long start = System.nanoTime();
    boolean waited = false;
    try {
      while (activeNeedsRoll()) {
        if (hasSegmentRoom()) {
          return roll();
        }
        waited = true;
        pipelineTable.awaitSegmentRoom(STALL_CHECK_MILLIS);
        ensureWritable();
      }
      return null;
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    } finally {
      if (waited) {
        segmentWaitNanos += System.nanoTime() - start;
      }
    }
  }

  /** Outside the lock: the writer that froze a segment waits for the indexer (backpressure). */
  private void awaitIndexer(SegmentDescriptor frozen) {
    if (frozen == null) {
      return;
    }
    try {
      pipeline.awaitIndexerRoom();
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
  }

  private void awaitDurable(long sequence) {
    if (log == null) {
      return;
    }
    try {
      log.awaitDurable(sequence);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void ensureWritable() {
    if (writesClosed) {
      throw new IllegalStateException("engine is closed");
    }
    pipeline.checkHealthy();
  }

  /** Refuses writes from now on; returns the live segment that took adds last. */
  SegmentDescriptor closeWrites() {
    writeLock.lock();
    try {
      writesClosed = true;
      return active;
    } finally {
      writeLock.unlock();
    }
  }

  /** A segment and a doc id in it. */
  private record Location(SegmentDescriptor segment, int doc) {}

  private void deleteAt(Location loc) {
    SegmentDescriptor d = loc.segment();
    d.setDeletions(DeletedDocs.delete(d.deletions(), loc.doc(), d.capacity()));
    if (!d.isLive()) {
      table.changed();
    }
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
      if (v == null) {
        continue;
      }
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

  /** Sizes, segment states and stage times. */
  RtEngineStats stats() throws IOException {
    Map<SegmentState, Integer> states = new EnumMap<>(SegmentState.class);
    List<SegmentDescriptor> segments = table.segments();
    for (SegmentDescriptor d : segments) {
      states.merge(d.state(), 1, Integer::sum);
    }
    long docs = 0;
    try (TableView.Bound bound = table.bind()) {
      for (LeafReader leaf : bound.leaves()) {
        docs += leaf.numDocs();
      }
    }
    SegmentDescriptor current = active;
    LiveSegment live = current == null ? null : current.global().liveSegment();
    long liveBytes = live == null ? 0 : live.ramBytesUsed();
    MemoryAccounts accounts = tiers.accounts();
    return new RtEngineStats(
        docs,
        segments.size(),
        segments.size(),
        states,
        accounts.dram(),
        accounts.peakDram(),
        accounts.largestDramSegment(),
        liveBytes + accounts.frozenLive(),
        accounts.nvm(),
        segmentWaitNanos,
        pipeline.mergesDeferred(),
        pipeline.stageStats());
  }

  /** The descriptor table, oldest segment first. */
  List<RtSegmentInfo> segments() {
    List<RtSegmentInfo> infos = new ArrayList<>();
    for (SegmentDescriptor d : table.segments()) {
      infos.add(RtSegmentInfo.of(d));
    }
    return infos;
  }

  /** Drops the table's references to every segment (close). */
  void retireAll() throws IOException {
    table.close();
    for (SegmentDescriptor d : table.segments()) {
      d.retire();
    }
  }
}
