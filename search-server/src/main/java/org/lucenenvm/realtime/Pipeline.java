package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SPIRIT's indexing pipeline behind the ingester, wired in one place: two background threads, so
 * that background work never takes more than two cores from ingestion and queries.
 *
 * <ol>
 *   <li>the <b>indexer</b> thread runs, per full live segment, {@link Flusher} → {@link
 *       Engraver} (eager engrave only) → {@link Checkpoint} → {@link Committer}; before a flush it
 *       waits while DRAM is over budget (committing what the policy allows first);
 *   <li>the <b>merger</b> thread runs the {@link Merger} whenever a segment gained an NVM copy or
 *       a partition asks for it ({@link #mergeLater}), and the {@link Checkpoint} when a partition
 *       asks for one ({@link #checkpointLater}).
 * </ol>
 *
 * A full pool stops neither: an engrave, and a checkpoint's manifest, wait until room is freed
 * (the segment stays readable in DRAM, writes are refused meanwhile, and the merger is asked to
 * reclaim deleted documents), a merge that does not fit is deferred ({@link NvmSpace}). Once an
 * engrave was given up because the pipeline stops, later segments are not engraved either: the
 * segments with an NVM copy must stay a prefix of the frozen ones (crash-consistent recovery relies
 * on it). Any other stage failure stops ingestion ({@link #checkHealthy}); nothing already
 * acknowledged is lost, since a segment stays in the table (searchable) until its next version is
 * in place.
 */
final class Pipeline {
  private static final int UNBLOCKING_CAPACITY = 1 << 16;
  private static final String IDLE = "idle";

  /**
   * Records the NVM tier's progress durably (crash-consistent mode: {@link Checkpointer}); called
   * by the indexer after every engrave and by the merger after every merge, before the merge's
   * sources are freed.
   */
  @FunctionalInterface
  interface Checkpoint {
    /** Nothing to record (modes without ingest log). */
    Checkpoint NONE = () -> {};

    void record() throws IOException;
  }

  private final PipelinePolicy policy;
  private final MemoryAccounts accounts;
  private final PartitionTable table;
  private final Tiers tiers;
  private final Flusher flusher;
  private final Engraver engraver;
  private final Committer committer;
  private final Merger merger;
  /** The partition's checkpoint, waiting for room for its manifest when the pool is full. */
  private final Checkpoint checkpoint;
  private final NvmSpace space;
  private final PipelineStage<SegmentDescriptor> indexerStage;
  private final PipelineStage<Work> mergerStage;
  /** Set by {@link #checkpointLater}, cleared by the merger thread before it checkpoints. */
  private final AtomicBoolean checkpointWanted = new AtomicBoolean();
  /** Set by {@link #mergeLater}, cleared by the merger thread before it merges. */
  private final AtomicBoolean mergeWanted = new AtomicBoolean();
  /** Set (by the indexer thread) once an engrave was given up: no later segment is engraved. */
  private boolean engravesGivenUp;
  /** What the indexer and the merger are doing now (for diagnostics and the kill test). */
  private volatile String indexerActivity = IDLE;
  private volatile String mergerActivity = IDLE;
  private volatile Throwable failure;
  private volatile boolean stopping;
  private volatile boolean abandoned;

  Pipeline(
      RtEngineConfig config,
      Tiers tiers,
      PartitionTable table,
      String threadPrefix,
      Checkpoint checkpoint) {
    this.policy = config.policy();
    this.accounts = tiers.accounts();
    this.table = table;
    this.tiers = tiers;
    this.space = tiers.space();
    this.checkpoint = () -> recordWhenRoom(checkpoint);
    this.flusher = new Flusher(tiers, table);
    this.engraver = new Engraver(tiers, this::mergeLater, this::stoppingOrHalted);
    this.committer = new Committer(policy, accounts, engraver, table, d -> mergeLater());
    this.merger = new Merger(config, tiers, table, this.checkpoint);
    this.indexerStage =
        new PipelineStage<>(
            threadPrefix + "indexer",
            config.queueCapacity(),
            config.backgroundNice(),
            this::index,
            this::fail);
    this.mergerStage =
        new PipelineStage<>(
            threadPrefix + "merger",
            UNBLOCKING_CAPACITY,
            config.backgroundNice(),
            this::background,
            this::fail);
  }

  void start() {
    indexerStage.start();
    mergerStage.start();
  }

  /** Throws if a stage failed: ingestion must stop. */
  void checkHealthy() {
    Throwable t = failure;
    if (t instanceof NvmFullException full) {
      NvmFullException thrown = new NvmFullException(full.getMessage());
      thrown.initCause(full);
      throw thrown;
    }
    if (t != null) {
      throw new IllegalStateException("indexing pipeline failed; ingestion stopped", t);
    }
  }

  /**
   * Hands a full live segment to the indexer without waiting, beyond the queue's capacity if it is
   * full. Called under the partition's write lock, so that segments reach the indexer in the order
   * they were frozen: the indexer engraves them in that order, which a checkpoint relies on (see
   * {@link Checkpointer}). The writer then waits with {@link #awaitIndexerRoom}.
   */
  void enqueueFrozen(SegmentDescriptor descriptor) {
    indexerStage.add(descriptor);
  }

  /**
   * Backpressure, after {@link #enqueueFrozen} and outside the write lock: waits while the
   * indexer's queue holds segments beyond its capacity, except while a stage waits for room in the
   * pool, since that wait may last until an operator deletes documents (writes are refused
   * meanwhile, so only the writers already under way queue a segment), and once the pipeline
   * stops.
   */
  void awaitIndexerRoom() throws InterruptedException {
    indexerStage.awaitRoom(space::waitingForRoom);
  }

  /**
   * Whether a writer may add a live segment to a table at its segment limit: only when merging
   * cannot make room (the NVM budget refused a merge, or the pipeline stopped working).
   */
  boolean cannotMakeSegmentRoom() {
    return merger.refused() || halted() || stopping;
  }

  /**
   * Lets the merger look at the whole table (after a commit, after segments were restored, after a
   * delete while writes are refused for want of room). Requests made before it starts are served
   * by one pass.
   */
  void mergeLater() {
    if (mergeWanted.compareAndSet(false, true) && !mergerStage.offer(Work.MERGE)) {
      mergeWanted.set(false);
    }
  }

  /**
   * Has the merger thread run the {@link Checkpoint} soon (without waiting for it): for deletes,
   * which no engrave makes durable. Requests made before it starts are served by one checkpoint.
   */
  void checkpointLater() {
    if (checkpointWanted.compareAndSet(false, true)) {
      mergerStage.offer(Work.CHECKPOINT); // if the queue is full, the next item serves it
    }
  }

  /**
   * Stops both threads after the segments already queued were flushed; a merge under way is
   * aborted (its sources stay in the table), queued ones are skipped.
   */
  void stop() throws InterruptedException {
    stopping = true;
    table.segmentRoomChanged();
    indexerStage.stop();
    mergerStage.stop();
  }

  /** Volatile shutdown: stages skip whatever is still queued, then stop (as {@link #stop}). */
  void abandon() throws InterruptedException {
    abandoned = true;
    stop();
  }

  private boolean halted() {
    return failure != null || abandoned;
  }

  private boolean stoppingOrHalted() {
    return stopping || halted();
  }

  /**
   * Records {@code partitionCheckpoint}, waiting while the pool has no room for the manifest
   * (segment writes leave a reserve for it, so only a pool filled otherwise makes it wait). Throws
   * if the pipeline stops meanwhile: nothing may then rely on the progress being recorded.
   */
  private void recordWhenRoom(Checkpoint partitionCheckpoint) throws IOException {
    boolean recorded =
        space.untilRoom(
            () -> {
              try {
                partitionCheckpoint.record();
              } catch (IOException e) {
                if (NvmSpace.isPoolFull(e)) {
                  NvmFullException full = new NvmFullException("the manifest: " + e.getMessage());
                  full.initCause(e);
                  throw full;
                }
                throw e;
              }
            },
            this::mergeLater,
            this::stoppingOrHalted);
    if (!recorded) {
      throw new IOException(
          "the pipeline stopped while the pool had no room to record its progress in the manifest");
    }
  }

  /**
   * After {@link #stop}: flushes, engraves and commits in the caller's thread every segment of the
   * table that is not in NVM yet, oldest first, whatever failed before (so a retry after the
   * operator made room can succeed). A segment that cannot be persisted stays as it is (still
   * searchable) and the others are still tried.
   *
   * @return the segments that could not be persisted (empty when everything is in NVM), each with
   *     the failure
   */
  Map<SegmentDescriptor, Exception> persistRemaining() {
    Map<SegmentDescriptor, Exception> failed = new LinkedHashMap<>();
    for (SegmentDescriptor d : table.segments()) {
      try {
        if (d.nvm() == null) {
          if (d.isLive()) {
            flusher.flush(d);
          }
          engraver.engraveNow(d);
        }
        if (d.state() == SegmentState.ENGRAVED) {
          d.committed();
          table.changed();
        }
      } catch (IOException | RuntimeException e) {
        failed.put(d, e);
      }
    }
    return failed;
  }

  /** Merges deferred so far because the NVM tier had no room for their output. */
  long mergesDeferred() {
    return merger.deferred();
  }

  /** Busy time and counts of each thread, in pipeline order. */
  Map<String, RtEngineStats.Stage> stageStats() {
    Map<String, RtEngineStats.Stage> stats = new LinkedHashMap<>();
    for (PipelineStage<?> s : List.of(indexerStage, mergerStage)) {
      stats.put(
          s.name().substring(s.name().lastIndexOf('-') + 1),
          new RtEngineStats.Stage(s.busyNanos(), s.items(), s.queued()));
    }
    return stats;
  }

  private void fail(Throwable t) {
    if (failure == null) {
      failure = t;
    }
    tiers.keepNvmFilesOnFree();
    synchronized (accounts) {
      accounts.notifyAll();
    }
    table.segmentRoomChanged(); // cannotMakeSegmentRoom changed
  }

  /**
   * The stage the pipeline is in now: the indexer's step ({@code flush}, {@code engrave}, {@code
   * checkpoint}, {@code commit}) if it is busy, else {@code merge} while the merger is, else
   * {@code idle}.
   */
  String activity() {
    String indexer = indexerActivity;
    if (indexer != IDLE) {
      return indexer;
    }
    return mergerActivity;
  }

  private void index(SegmentDescriptor d) throws IOException, InterruptedException {
    if (halted()) {
      return;
    }
    try {
      indexerActivity = "commit";
      committer.commitDue();
      indexerActivity = IDLE;
      accounts.awaitDramRoom(() -> {}, this::halted);
      if (halted()) {
        return;
      }
      indexerActivity = "flush";
      flusher.flush(d);
      if (policy.eagerEngrave()) {
        indexerActivity = "engrave";
        if (engravesGivenUp || !engraver.engrave(d)) {
          engravesGivenUp = true; // stopping: it stays in DRAM, searchable, for close to persist
          return;
        }
        indexerActivity = "checkpoint";
        checkpoint.record();
      }
      mergeLater();
      indexerActivity = "commit";
      committer.offer(d);
    } finally {
      indexerActivity = IDLE;
    }
  }

  /** What the merger thread is asked to do. */
  private enum Work {
    MERGE,
    CHECKPOINT
  }

  private void background(Work work) throws IOException {
    if (work == Work.MERGE) {
      mergeWanted.set(false);
      merge();
    }
    if (checkpointWanted.getAndSet(false) && !halted()) {
      mergerActivity = "checkpoint";
      try {
        checkpoint.record();
      } finally {
        mergerActivity = IDLE;
      }
    }
  }

  private void merge() throws IOException {
    mergerActivity = "merge";
    try {
      merger.reclaimAsNeeded(this::stoppingOrHalted);
      merger.mergeAsNeeded(this::stoppingOrHalted);
    } finally {
      mergerActivity = IDLE;
    }
  }
}
