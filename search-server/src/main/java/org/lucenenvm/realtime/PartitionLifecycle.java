package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.ThreadInterruptedException;
import org.lucenenvm.store.NvmDirectory;

/**
 * Opening, recovery, the {@link Manifest} and closing of one {@link Partition}: everything that
 * decides what a partition finds in its NVM directory at open and leaves there at close. Holds the
 * directory's lock {@value #LOCK_NAME} from open to a successful close, so a second engine cannot
 * open (and, in volatile mode, wipe) the same directory.
 */
final class PartitionLifecycle implements Closeable {
  /** The lock a partition holds on its directory while open. */
  static final String LOCK_NAME = "rt.lock";

  /** The ingest log file of a crash-consistent partition, in the directory's namespace. */
  static final String LOG_NAME = "rt.log";

  private final RtEngineConfig config;
  private final Directory nvm;
  private final Lock lock;
  private final Partition partition;
  /** The ingest log (crash-consistent mode), or null. */
  private final IngestLog log;
  /** Set once, when open is done. */
  private volatile RtRecovery recovery;
  /** Set when close() succeeded: everything is released. */
  private volatile boolean closed;
  /** Whether close() has taken the live segment out of ingestion (guarded by this). */
  private boolean activeHandedOver;
  /** Whether close() has stopped the pipeline threads (guarded by this). */
  private boolean pipelineStopped;

  private PartitionLifecycle(
      RtEngineConfig config,
      Directory nvm,
      Lock lock,
      Partition partition,
      IngestLog log) {
    this.config = config;
    this.nvm = nvm;
    this.lock = lock;
    this.partition = partition;
    this.log = log;
  }

  Partition partition() {
    return partition;
  }

  boolean closed() {
    return closed;
  }

  /** What opening this partition found and did. */
  RtRecovery recovery() {
    return recovery;
  }

  /**
   * Where a crash-consistent partition keeps its ingest log: file {@code name} of {@code
   * directory} (the pool's directory itself, since a log is a region of it).
   */
  record LogFile(NvmDirectory directory, String name) {}

  /**
   * Opens the partition whose NVM tier is {@code nvm}; see {@link DurabilityMode} for what it finds
   * and refuses. Throws {@link LockObtainFailedException} while another engine has {@code nvm}
   * open. {@code logFile} (crash-consistent mode only, else null) is where the ingest log lives;
   * {@code inverter} analyzes the documents replayed from it; {@code space} is the room of the pool
   * {@code nvm} lives in, shared by the engine's partitions.
   */
  static PartitionLifecycle open(
      Directory nvm,
      RtEngineConfig config,
      int index,
      LogFile logFile,
      DocumentInverter inverter,
      NvmSpace space)
      throws IOException {
    long started = System.nanoTime();
    Lock lock = obtainLock(nvm);
    try {
      Tiers tiers = new Tiers(nvm, config, space);
      String name = "rt-p" + index + "-";
      return switch (config.mode()) {
        case VOLATILE -> openVolatile(nvm, config, index, name, lock, tiers, started);
        case GRACEFUL -> openGraceful(nvm, config, index, name, lock, tiers, started);
        case CRASH_CONSISTENT ->
            openCrashConsistent(nvm, config, index, name, lock, tiers, logFile, inverter, started);
      };
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

  private static PartitionLifecycle openVolatile(
      Directory nvm, RtEngineConfig config, int index, String name, Lock lock, Tiers tiers, long started)
      throws IOException {
    Manifest manifest = Manifest.find(nvm);
    if (manifest != null) {
      throw new IllegalStateException(
          nvm
              + " holds the "
              + Manifest.FILE_NAME
              + " of a "
              + (manifest.status() == Manifest.Status.LOGGED ? "CRASH_CONSISTENT" : "GRACEFUL")
              + " engine ("
              + manifest.status()
              + ", "
              + manifest.segments().size()
              + " segments); a VOLATILE engine would discard them: open it in that mode,"
              + " or delete "
              + Manifest.FILE_NAME
              + ", "
              + LOG_NAME
              + " and its seg* files to discard that index");
    }
    refuseLeftLog(nvm, DurabilityMode.VOLATILE);
    int dropped = tiers.deleteNvmSegmentsExcept(Set.of());
    Partition partition = new Partition(config, tiers, 0, name, null, 0);
    PartitionLifecycle lifecycle = start(new PartitionLifecycle(config, nvm, lock, partition, null));
    lifecycle.recovery =
        new RtRecovery(index, DurabilityMode.VOLATILE, "none", 0, dropped, 0, 0, null, System.nanoTime() - started);
    return lifecycle;
  }

  private static PartitionLifecycle openGraceful(
      Directory nvm, RtEngineConfig config, int index, String name, Lock lock, Tiers tiers, long started)
      throws IOException {
    Manifest manifest = Manifest.find(nvm);
    refuseLeftLog(nvm, DurabilityMode.GRACEFUL);
    checkRestorable(tiers, manifest);
    Set<Long> kept = new HashSet<>();
    if (manifest != null) {
      manifest.segments().forEach(s -> kept.add(s.id()));
    }
    int dropped = tiers.deleteNvmSegmentsExcept(kept);
    long nextId = manifest == null ? 0 : manifest.nextSegmentId();
    Partition partition = new Partition(config, tiers, nextId, name, null, 0);
    try {
      if (manifest != null) {
        restore(partition, manifest);
      }
      Manifest.inUse(nextId).write(nvm);
      Manifest.reserveRoom(nvm);
    } catch (IOException | RuntimeException e) {
      tiers.keepNvmFilesOnFree();
      IOUtils.closeWhileHandlingException(partition::retireAll);
      throw e;
    }
    PartitionLifecycle lifecycle = start(new PartitionLifecycle(config, nvm, lock, partition, null));
    lifecycle.recovery =
        new RtRecovery(
            index,
            DurabilityMode.GRACEFUL,
            manifest == null ? "none" : manifest.status().toString(),
            kept.size(),
            dropped,
            0,
            0,
            null,
            System.nanoTime() - started);
    return lifecycle;
  }

  /** Refuses to open a partition a crash-consistent engine left (its log holds operations). */
  private static void refuseLeftLog(Directory nvm, DurabilityMode mode) throws IOException {
    if (Arrays.asList(nvm.listAll()).contains(LOG_NAME)) {
      throw new IllegalStateException(
          nvm
              + " holds the ingest log "
              + LOG_NAME
              + " of a CRASH_CONSISTENT engine, whose operations only that mode replays; a "
              + mode
              + " engine would lose them: open it in CRASH_CONSISTENT mode");
    }
  }

  /**
   * Crash-consistent open: restores the manifest's segments, deletes unlisted segment files,
   * opens the ingest log and replays its records after the manifest's DurableSequence.
   */
  private static PartitionLifecycle openCrashConsistent(
      Directory nvm,
      RtEngineConfig config,
      int index,
      String name,
      Lock lock,
      Tiers tiers,
      LogFile logFile,
      DocumentInverter inverter,
      long started)
      throws IOException {
    Manifest manifest = Manifest.find(nvm);
    boolean hasLog = Arrays.asList(nvm.listAll()).contains(LOG_NAME);
    if (manifest == null || manifest.status() != Manifest.Status.LOGGED) {
      checkRestorable(tiers, manifest);
      if (hasLog && manifest != null) {
        // A CLEAN manifest lists every operation; a log next to it is one a close left behind.
        nvm.deleteFile(LOG_NAME);
        nvm.syncMetaData();
      }
    } else if (!hasLog) {
      throw new IllegalStateException(
          nvm
              + ": "
              + Manifest.FILE_NAME
              + " says the operations after "
              + manifest.durableSequence()
              + " are in the ingest log, but "
              + LOG_NAME
              + " is missing; refusing to open without them");
    }
    long durable = manifest == null ? 0 : manifest.durableSequence();
    Set<Long> kept = new HashSet<>();
    if (manifest != null) {
      manifest.segments().forEach(s -> kept.add(s.id()));
    }
    int dropped = tiers.deleteNvmSegmentsExcept(kept);
    long nextId = manifest == null ? 0 : manifest.nextSegmentId();
    IngestLog log =
        IngestLog.open(
            logFile.directory(), logFile.name(), config.logBytes(), config.logFullTimeout(), durable + 1);
    Partition partition = null;
    PartitionLifecycle lifecycle;
    try {
      if (log.firstSequence() > durable + 1) {
        throw new CorruptIngestLogException(
            "ingest log "
                + LOG_NAME
                + " of "
                + nvm
                + " starts at record "
                + log.firstSequence()
                + " but "
                + Manifest.FILE_NAME
                + " holds operations only up to "
                + durable
                + ": records in between were reclaimed and are in no segment");
      }
      if (log.lastSequence() < durable) {
        // The segments hold operations whose records a crash lost before they were acknowledged
        // (a torn tail): new records must be numbered after the segments' operations.
        log.restartAfter(durable);
      }
      partition = new Partition(config, tiers, nextId, name, log, durable);
      if (manifest != null) {
        restore(partition, manifest);
      }
      partition.checkpoint(); // LOGGED from now on (a CLEAN manifest becomes one)
      lifecycle = start(new PartitionLifecycle(config, nvm, lock, partition, log));
      long replayed = replay(partition, log, durable + 1, inverter);
      lifecycle.recovery =
          new RtRecovery(
              index,
              DurabilityMode.CRASH_CONSISTENT,
              manifest == null ? "none" : manifest.status().toString(),
              kept.size(),
              dropped,
              durable,
              replayed,
              log.recovery().tornTail(),
              System.nanoTime() - started);
      return lifecycle;
    } catch (IOException | RuntimeException e) {
      tiers.keepNvmFilesOnFree();
      if (partition != null) {
        try {
          partition.pipeline().abandon();
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
        IOUtils.closeWhileHandlingException(partition::retireAll);
      }
      IOUtils.closeWhileHandlingException(log);
      throw e;
    }
  }

  /**
   * Applies the log records from {@code from} on to {@code partition}; returns how many. A record
   * that cannot be read or applied stops recovery with an exception naming it.
   */
  private static long replay(Partition partition, IngestLog log, long from, DocumentInverter inverter)
      throws IOException {
    IngestLog.Cursor cursor = log.read(from);
    long replayed = 0;
    for (LogRecord r = cursor.next(); r != null; r = cursor.next()) {
      InvertedDocument doc =
          r.operation() == LogOperation.DELETE ? null : inverter.invert(LogDocumentCodec.decode(r));
      try {
        partition.replay(r, doc);
      } catch (RuntimeException e) {
        throw new IOException(
            "replaying ingest log record " + r.sequence() + " (" + r.operation() + " of id '" + r.id()
                + "') failed; the index is not opened",
            e);
      }
      replayed++;
    }
    return replayed;
  }

  private static PartitionLifecycle start(PartitionLifecycle lifecycle) {
    lifecycle.partition.start();
    return lifecycle;
  }

  /** Refuses (naming the problem) a graceful index that would not serve every acknowledged doc. */
  private static void checkRestorable(Tiers tiers, Manifest manifest) throws IOException {
    Directory nvm = tiers.nvm();
    if (manifest == null) {
      if (!tiers.nvmSegmentIds().isEmpty()) {
        throw new IllegalStateException(
            nvm
                + " holds segment files but no shutdown manifest: the previous engine did not shut"
                + " down gracefully (crash or volatile mode); "
                + DISCARD_HINT);
      }
      return;
    }
    switch (manifest.status()) {
      case CLEAN -> {}
      case LOGGED ->
          throw new IllegalStateException(
              nvm
                  + " was left by a CRASH_CONSISTENT engine: its ingest log holds operations only"
                  + " that mode replays; open it in CRASH_CONSISTENT mode");
      case IN_USE ->
          throw new IllegalStateException(
              nvm
                  + ": the previous GRACEFUL engine did not shut down gracefully (a crash, or a"
                  + " graceful close that could not even record what it persisted), so"
                  + " acknowledged documents may be missing; its segment files are kept. "
                  + DISCARD_HINT);
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

  /** How an operator accepts the loss of an index whose state cannot be verified. */
  static final String DISCARD_HINT =
      "To accept the loss and start that index empty, call RtEngine.discardUnverifiable(directory)"
          + " (server: restart with --discard-unverifiable <index>)";

  /**
   * Discards the state of the partition in {@code nvm} that a crashed graceful engine (or a
   * volatile one) left: writes a CLEAN manifest listing no segment, so the next open deletes the
   * segment files. Returns whether it did; nothing changes unless the partition was refused for
   * that reason.
   */
  static boolean discardUnverifiable(Directory nvm) throws IOException {
    try (Lock lock = obtainLock(nvm)) {
      Manifest manifest = Manifest.find(nvm);
      boolean unverifiable =
          manifest == null ? hasSegmentFiles(nvm) : manifest.status() == Manifest.Status.IN_USE;
      if (unverifiable) {
        new Manifest(
                Manifest.Status.CLEAN,
                manifest == null ? 0 : manifest.nextSegmentId(),
                List.of(),
                null)
            .write(nvm);
      }
      return unverifiable;
    }
  }

  private static boolean hasSegmentFiles(Directory nvm) throws IOException {
    for (String file : nvm.listAll()) {
      if (Tiers.segmentIdOf(file) != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Accepts the loss recorded by a failed graceful close of the partition in {@code nvm}: see
   * {@link RtEngine#acceptIncomplete}.
   */
  static long acceptIncomplete(Directory nvm) throws IOException {
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

  /** Puts the segments a manifest lists back into the partition's table. */
  private static void restore(Partition partition, Manifest manifest) throws IOException {
    for (Manifest.Segment s : manifest.segments()) {
      SegmentVersion version = partition.tiers().openNvm(s.id());
      if (version.maxDoc() != s.maxDoc()) {
        version.decRef();
        throw new IllegalStateException(
            "segment " + s.id() + " has " + version.maxDoc() + " docs, manifest: " + s.maxDoc());
      }
      SegmentDescriptor d =
          new SegmentDescriptor(s.id(), s.level(), s.maxDoc(), version, s.state());
      d.setDeletions(s.deletions());
      d.setIdFilter(IdFilter.of(version.segment()));
      partition.restore(d);
    }
  }

  /**
   * Closes the partition; writes are refused from the first call on. In {@link
   * DurabilityMode#GRACEFUL} mode first flushes and engraves every document and writes the
   * manifest; see {@link RtEngine#close} for what a failure leaves. In volatile mode discards the
   * segment files. Closing a closed partition does nothing.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    SegmentDescriptor last = partition.closeWrites();
    try {
      if (config.mode() == DurabilityMode.GRACEFUL) {
        closeGracefully(last);
        closed = true;
      } else if (config.mode() == DurabilityMode.CRASH_CONSISTENT) {
        closed = true;
        closeCrashConsistent();
      } else {
        closed = true;
        partition.pipeline().abandon();
        try {
          partition.retireAll();
          partition.tiers().deleteNvmSegmentsExcept(Set.of());
        } finally {
          IOUtils.close(lock);
        }
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
  }

  /**
   * Crash-consistent close: the pipeline engraves the segments already queued (each recorded in
   * the manifest), then stops; the operations of the live segment stay in the ingest log, which
   * the next open replays.
   */
  private void closeCrashConsistent() throws IOException, InterruptedException {
    partition.tiers().keepNvmFilesOnFree();
    try {
      partition.pipeline().stop();
      partition.checkpoint();
    } finally {
      IOUtils.close(partition::retireAll, log, lock);
    }
  }

  private void closeGracefully(SegmentDescriptor last) throws IOException, InterruptedException {
    if (!activeHandedOver) {
      LiveSegment segment = last.global().liveSegment();
      if (segment.published() > 0) {
        partition.tiers().accounts().addFrozenLive(segment.ramBytesUsed());
      } else {
        partition.removeEmptyActive(last);
        last.retire();
      }
      activeHandedOver = true;
    }
    if (!pipelineStopped) {
      partition.pipeline().stop();
      pipelineStopped = true;
    }
    Map<SegmentDescriptor, Exception> failed = partition.pipeline().persistRemaining();
    Manifest.releaseRoom(nvm);
    List<Manifest.Segment> persisted = new ArrayList<>();
    for (SegmentDescriptor d : partition.descriptors()) {
      SegmentVersion nvmVersion = d.nvm();
      if (nvmVersion != null) {
        persisted.add(Manifest.Segment.of(d, nvmVersion));
      }
    }
    if (failed.isEmpty()) {
      new Manifest(Manifest.Status.CLEAN, partition.nextSegmentId(), persisted, null).write(nvm);
      partition.tiers().keepNvmFilesOnFree();
      IOUtils.close(partition::retireAll, lock);
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
            partition.nextSegmentId(),
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
}
