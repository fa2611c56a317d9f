package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * Opening, recovery, the {@link Manifest} and closing of one {@link Partition}: everything that
 * decides what a partition finds in its NVM directory at open and leaves there at close. Holds the
 * directory's lock {@value #LOCK_NAME} from open to a successful close, so a second engine cannot
 * open (and, in volatile mode, wipe) the same directory.
 */
final class PartitionLifecycle implements Closeable {
  /** The lock a partition holds on its directory while open. */
  static final String LOCK_NAME = "rt.lock";

  private final RtEngineConfig config;
  private final Directory nvm;
  private final Lock lock;
  private final Partition partition;
  /** Set when close() succeeded: everything is released. */
  private volatile boolean closed;
  /** Whether close() has taken the live segment out of ingestion (guarded by this). */
  private boolean activeHandedOver;
  /** Whether close() has stopped the pipeline threads (guarded by this). */
  private boolean pipelineStopped;

  private PartitionLifecycle(
      RtEngineConfig config, Directory nvm, Lock lock, Partition partition) {
    this.config = config;
    this.nvm = nvm;
    this.lock = lock;
    this.partition = partition;
  }

  Partition partition() {
    return partition;
  }

  boolean closed() {
    return closed;
  }

  /**
   * Opens the partition whose NVM tier is {@code nvm}; see {@link DurabilityMode} for what it finds
   * and refuses. Throws {@link LockObtainFailedException} while another engine has {@code nvm}
   * open.
   */
  static PartitionLifecycle open(Directory nvm, RtEngineConfig config, String name)
      throws IOException {
    Lock lock = obtainLock(nvm);
    Tiers tiers = null;
    try {
      tiers = new Tiers(nvm, config);
      return open(nvm, config, name, lock, tiers);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(tiers, lock);
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

  private static PartitionLifecycle open(
      Directory nvm, RtEngineConfig config, String name, Lock lock, Tiers tiers)
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
      tiers.deleteNvmSegmentsExcept(Set.of());
      Partition partition = new Partition(config, tiers, 0, name);
      return start(new PartitionLifecycle(config, nvm, lock, partition));
    }
    checkRestorable(tiers, manifest);
    Set<Long> kept = new HashSet<>();
    if (manifest != null) {
      manifest.segments().forEach(s -> kept.add(s.id()));
    }
    tiers.deleteNvmSegmentsExcept(kept);
    long nextId = manifest == null ? 0 : manifest.nextSegmentId();
    Partition partition = new Partition(config, tiers, nextId, name);
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
    return start(new PartitionLifecycle(config, nvm, lock, partition));
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
                + " down gracefully (crash or volatile mode); delete its seg* files to start"
                + " empty");
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
      partition.table().add(d);
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
      } else {
        closed = true;
        partition.pipeline().abandon();
        try {
          partition.retireAll();
          partition.tiers().deleteNvmSegmentsExcept(Set.of());
        } finally {
          IOUtils.close(partition.tiers(), lock);
        }
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
  }

  private void closeGracefully(SegmentDescriptor last) throws IOException, InterruptedException {
    DescriptorTable table = partition.table();
    if (!activeHandedOver) {
      LiveSegment segment = last.global().liveSegment();
      if (segment.published() > 0) {
        partition.tiers().accounts().addFrozenLive(segment.ramBytesUsed());
      } else {
        table.replace(List.of(last), null);
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
    for (SegmentDescriptor d : table.segments()) {
      if (d.nvm() != null) {
        SegmentState state =
            d.state() == SegmentState.MERGED ? SegmentState.MERGED : SegmentState.COMMITTED;
        persisted.add(
            new Manifest.Segment(d.id(), d.level(), state, d.nvm().maxDoc(), d.deletions()));
      }
    }
    if (failed.isEmpty()) {
      new Manifest(Manifest.Status.CLEAN, partition.nextSegmentId(), persisted, null).write(nvm);
      partition.tiers().keepNvmFilesOnFree();
      IOUtils.close(partition::retireAll, partition.tiers(), lock);
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
