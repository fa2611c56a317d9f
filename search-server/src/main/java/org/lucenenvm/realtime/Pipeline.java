package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SlowCodecReaderWrapper;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.FixedBitSet;

/**
 * SPIRIT's indexing pipeline behind the ingester, one thread per stage, joined by bounded queues:
 *
 * <ol>
 *   <li><b>flusher</b>: a full live segment becomes a read-optimized Lucene segment in the DRAM
 *       tier ({@code addIndexes} of the frozen live reader: nothing is analyzed twice); waits while
 *       DRAM is over budget;
 *   <li><b>engraver</b> (eager engrave only): copies the segment's files into the NVM directory in
 *       bulk and syncs them;
 *   <li><b>committer</b>: when the policy says so (eager pointer, DRAM over budget, or shutdown)
 *       engraves if still needed, switches queries to the NVM copy and drops the DRAM copy, which
 *       is freed once no query holds it;
 *   <li><b>merger</b>: merges {@code mergeFactor} committed segments of one level into one NVM
 *       segment (Lucene's merge via {@code addIndexes} of the segments' readers) and carries over
 *       deletes that arrived during the merge.
 * </ol>
 *
 * A stage failure stops ingestion ({@link #checkHealthy}); nothing already acknowledged is lost,
 * since a segment stays in the table (searchable) until its next version is in place.
 */
final class Pipeline {
  private static final Object TICK = new Object();
  private static final int UNBLOCKING_CAPACITY = 1 << 16;

  private final RtEngineConfig config;
  private final Directory nvm;
  private final DescriptorTable table;
  private final Lock writeLock;
  private final AtomicLong nextSegmentId;
  private final MemoryAccounts accounts;
  private final SegmentFiles files;
  private final PipelineStage<SegmentDescriptor> flusher;
  private final PipelineStage<SegmentDescriptor> engraver;
  private final PipelineStage<Object> committer;
  private final PipelineStage<SegmentDescriptor> merger;
  private final ArrayDeque<SegmentDescriptor> awaitingCommit = new ArrayDeque<>();
  private final List<SegmentDescriptor> mergeCandidates = new ArrayList<>();
  private final AtomicInteger uncommitted = new AtomicInteger();
  private volatile Throwable failure;
  private volatile boolean draining;
  private volatile boolean keepFilesOnFree;
  private volatile boolean abandoned;

  Pipeline(
      RtEngineConfig config,
      Directory nvm,
      DescriptorTable table,
      Lock writeLock,
      AtomicLong nextSegmentId,
      MemoryAccounts accounts,
      String threadPrefix) {
    this.config = config;
    this.nvm = nvm;
    this.table = table;
    this.writeLock = writeLock;
    this.nextSegmentId = nextSegmentId;
    this.accounts = accounts;
    this.files = new SegmentFiles(config.codec(), config.similarity());
    int q = config.queueCapacity();
    this.flusher = stage(threadPrefix + "flusher", q, this::flush);
    this.engraver = stage(threadPrefix + "engraver", q, this::engraveStage);
    // The committer and merger queues must never block their producers for long: the committer
    // holds segments until DRAM pressure, and the merger takes the engine's write lock.
    this.committer = stage(threadPrefix + "committer", UNBLOCKING_CAPACITY, this::commitStage);
    this.merger = stage(threadPrefix + "merger", UNBLOCKING_CAPACITY, this::mergeStage);
  }

  private <T> PipelineStage<T> stage(String name, int capacity, PipelineStage.Handler<T> handler) {
    return new PipelineStage<>(name, capacity, handler, this::fail, this::signal);
  }

  static String namespace(long segmentId) {
    return "seg" + segmentId + "_";
  }

  void start() {
    flusher.start();
    engraver.start();
    committer.start();
    merger.start();
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

  Throwable failure() {
    return failure;
  }

  /**
   * Accounts a full live segment as on its way to NVM (under the engine's write lock, so a
   * graceful close waits for it); {@link #enqueueFrozen} then hands it to the flusher.
   */
  void freeze(SegmentDescriptor descriptor) {
    uncommitted.incrementAndGet();
    accounts.addFrozenLive(descriptor.global().liveSegment().ramBytesUsed());
  }

  /** Hands a frozen segment to the flusher, waiting while the flush queue is full. */
  void enqueueFrozen(SegmentDescriptor descriptor) throws InterruptedException {
    flusher.put(descriptor);
  }

  /** Registers a segment restored from NVM as a merge candidate. */
  void submitRestored(SegmentDescriptor descriptor) throws InterruptedException {
    merger.put(descriptor);
  }

  /**
   * Graceful drain: commits everything (whatever the policy), waits until every submitted segment
   * is in NVM or a stage failed, then stops all stages (the merger finishes its queue).
   */
  void drainAndStop() throws InterruptedException {
    draining = true;
    committer.put(TICK);
    synchronized (this) {
      while (uncommitted.get() > 0 && failure == null) {
        wait(100);
      }
    }
    stop();
  }

  /** Volatile shutdown: stages skip whatever is still queued, then stop. */
  void abandon() throws InterruptedException {
    abandoned = true;
    stop();
  }

  private boolean halted() {
    return failure != null || abandoned;
  }

  /** Stops all stages after the items already queued. */
  void stop() throws InterruptedException {
    draining = true;
    flusher.stop();
    engraver.stop();
    committer.stop();
    merger.stop();
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
          if (d.state() == SegmentState.INGESTED) {
            flushToDram(d);
          }
          engrave(d);
        }
        if (d.state() == SegmentState.ENGRAVED) {
          d.committed();
        }
      } catch (IOException | RuntimeException e) {
        failed.put(d, e);
      }
    }
    return failed;
  }

  /** From now on freeing an NVM version keeps its files (graceful shutdown). */
  void keepFilesOnFree() {
    keepFilesOnFree = true;
  }

  /** Busy time and counts of each stage, in pipeline order. */
  Map<String, RtEngineStats.Stage> stageStats() {
    Map<String, RtEngineStats.Stage> stats = new LinkedHashMap<>();
    for (PipelineStage<?> s : List.of(flusher, engraver, committer, merger)) {
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
    signal();
    synchronized (accounts) {
      accounts.notifyAll();
    }
  }

  private synchronized void signal() {
    notifyAll();
  }

  // ---- flusher

  private void flush(SegmentDescriptor d) throws IOException, InterruptedException {
    if (halted()) {
      return;
    }
    accounts.awaitDramRoom(() -> committer.offer(TICK), this::halted);
    if (halted()) {
      return;
    }
    flushToDram(d);
    if (config.policy().eagerEngrave()) {
      engraver.put(d);
    } else {
      committer.put(d);
    }
  }

  /** Writes a live segment as a read-optimized segment in DRAM and switches queries to it. */
  private void flushToDram(SegmentDescriptor d) throws IOException {
    LiveSegment live = d.global().liveSegment();
    ByteBuffersDirectory dram = new ByteBuffersDirectory();
    files.write(dram, SlowCodecReaderWrapper.wrap(live.reader(null)));
    long bytes = SegmentFiles.bytes(dram);
    SegmentVersion version =
        SegmentVersion.stored(
            SegmentVersion.Tier.DRAM, DirectoryReader.open(dram), dram, bytes, this::freeDram);
    accounts.addDram(bytes);
    d.setIdFilter(IdFilter.of(version.segment()));
    d.flushed(version);
  }

  private void freeDram(SegmentVersion v) throws IOException {
    v.directory().close();
    accounts.releaseDram(v.bytes());
  }

  /** Free action of NVM versions: deletes their files unless shutting down gracefully. */
  void freeNvm(SegmentVersion v) throws IOException {
    if (!keepFilesOnFree) {
      SegmentFiles.deleteAll(v.directory());
      accounts.adjustNvm(-v.bytes());
    }
  }

  /** Free action of live versions: their frozen bytes leave the account. */
  void freeLive(SegmentVersion v) {
    accounts.addFrozenLive(-v.liveSegment().ramBytesUsed());
  }

  // ---- engraver

  private void engraveStage(SegmentDescriptor d) throws IOException, InterruptedException {
    if (halted()) {
      return;
    }
    engrave(d);
    committer.put(d);
  }

  private void engrave(SegmentDescriptor d) throws IOException {
    SegmentVersion dram = d.dram();
    long bytes = dram.bytes();
    accounts.reserveNvm(bytes, "segment " + d.id());
    NamespacedDirectory target = NamespacedDirectory.segment(nvm, namespace(d.id()));
    DirectoryReader reader;
    try {
      SegmentFiles.copyDurably(dram.directory(), target);
      reader = DirectoryReader.open(target);
    } catch (IOException e) {
      accounts.adjustNvm(-bytes);
      deleteQuietly(target);
      NvmFullException full =
          new NvmFullException("NVM directory refused segment " + d.id() + ": " + e);
      full.initCause(e);
      throw full;
    } catch (RuntimeException e) {
      accounts.adjustNvm(-bytes);
      deleteQuietly(target);
      throw e;
    }
    d.engraved(nvmVersion(reader, target, bytes));
  }

  private SegmentVersion nvmVersion(DirectoryReader reader, Directory dir, long bytes) {
    return SegmentVersion.stored(SegmentVersion.Tier.NVM, reader, dir, bytes, this::freeNvm);
  }

  private static void deleteQuietly(Directory dir) {
    try {
      SegmentFiles.deleteAll(dir);
    } catch (IOException | RuntimeException suppressed) {
      // best effort: a later open removes files that no manifest names
    }
  }

  // ---- committer

  private void commitStage(Object item) throws IOException, InterruptedException {
    if (item instanceof SegmentDescriptor d) {
      awaitingCommit.addLast(d);
    }
    while (!awaitingCommit.isEmpty()
        && !halted()
        && (config.policy().eagerPointer() || draining || accounts.dramOverBudget())) {
      SegmentDescriptor d = awaitingCommit.peekFirst();
      if (d.nvm() == null) {
        engrave(d);
      }
      d.committed();
      awaitingCommit.removeFirst();
      uncommitted.decrementAndGet();
      merger.put(d);
    }
  }

  // ---- merger

  private void mergeStage(SegmentDescriptor d) throws IOException {
    mergeCandidates.add(d);
    if (draining || halted()) {
      return;
    }
    boolean merged = true;
    while (merged) {
      merged = false;
      Map<Integer, List<SegmentDescriptor>> byLevel = new TreeMap<>();
      for (SegmentDescriptor c : mergeCandidates) {
        byLevel.computeIfAbsent(c.level(), l -> new ArrayList<>()).add(c);
      }
      for (List<SegmentDescriptor> level : byLevel.values()) {
        if (level.size() >= config.mergeFactor()) {
          List<SegmentDescriptor> sources = List.copyOf(level.subList(0, config.mergeFactor()));
          SegmentDescriptor result = merge(sources);
          if (result != sources.get(0)) {
            mergeCandidates.removeAll(sources);
            if (result != null) {
              mergeCandidates.add(result);
            }
            merged = true;
          }
          break;
        }
      }
    }
  }

  /**
   * Merges {@code sources} into one NVM segment; returns the merged descriptor, null when every doc
   * was deleted, or {@code sources.get(0)} when the NVM budget cannot hold the merge (nothing
   * changed).
   */
  private SegmentDescriptor merge(List<SegmentDescriptor> sources) throws IOException {
    List<SegmentVersion> held = new ArrayList<>(sources.size());
    DeletedDocs[] before = new DeletedDocs[sources.size()];
    CodecReader[] readers = new CodecReader[sources.size()];
    try {
      long sourceBytes = 0;
      int liveDocs = 0;
      int level = 0;
      for (int i = 0; i < sources.size(); i++) {
        SegmentDescriptor s = sources.get(i);
        before[i] = s.deletions();
        SegmentVersion v = s.acquire();
        held.add(v);
        readers[i] = new LiveDocsCodecReader(v.segment(), before[i]);
        sourceBytes += v.bytes();
        liveDocs += readers[i].numDocs();
        level = Math.max(level, s.level() + 1);
      }
      if (!accounts.tryReserveNvm(sourceBytes)) {
        return sources.get(0);
      }
      long id = nextSegmentId.getAndIncrement();
      SegmentVersion version = null;
      if (liveDocs > 0) {
        NamespacedDirectory target = NamespacedDirectory.segment(nvm, namespace(id));
        DirectoryReader reader;
        long bytes;
        try {
          files.write(target, readers);
          reader = DirectoryReader.open(target);
          bytes = SegmentFiles.bytes(target);
        } catch (IOException e) {
          accounts.adjustNvm(-sourceBytes);
          deleteQuietly(target);
          NvmFullException full =
              new NvmFullException("NVM directory refused merged segment " + id + ": " + e);
          full.initCause(e);
          throw full;
        } catch (RuntimeException e) {
          accounts.adjustNvm(-sourceBytes);
          deleteQuietly(target);
          throw e;
        }
        accounts.adjustNvm(bytes - sourceBytes);
        version = nvmVersion(reader, target, bytes);
      } else {
        accounts.adjustNvm(-sourceBytes);
      }
      IdFilter filter = version == null ? null : IdFilter.of(version.segment());
      SegmentDescriptor merged = null;
      writeLock.lock();
      try {
        if (version != null) {
          merged = new SegmentDescriptor(id, level, liveDocs, version, SegmentState.MERGED);
          merged.setIdFilter(filter);
          merged.setDeletions(carryOverDeletes(sources, before, readers, liveDocs));
        }
        table.replace(sources, merged);
      } finally {
        writeLock.unlock();
      }
      for (SegmentDescriptor s : sources) {
        s.retire();
      }
      return merged;
    } finally {
      RtSnapshot.release(held);
    }
  }

  /** Deletes that reached the sources while they were being merged, in merged doc ids. */
  private static DeletedDocs carryOverDeletes(
      List<SegmentDescriptor> sources, DeletedDocs[] before, CodecReader[] readers, int maxDoc) {
    FixedBitSet live = null;
    int count = 0;
    int base = 0;
    for (int i = 0; i < sources.size(); i++) {
      DeletedDocs now = sources.get(i).deletions();
      int sourceMaxDoc = readers[i].maxDoc();
      if (now != before[i]) {
        if (live == null) {
          live = new FixedBitSet(maxDoc);
          live.set(0, maxDoc);
        }
        int newDoc = base;
        for (int doc = 0; doc < sourceMaxDoc; doc++) {
          if (before[i] == null || before[i].isLive(doc)) {
            if (!now.isLive(doc)) {
              live.clear(newDoc);
              count++;
            }
            newDoc++;
          }
        }
      }
      base += readers[i].numDocs();
    }
    return live == null ? null : new DeletedDocs(live, count);
  }
}
