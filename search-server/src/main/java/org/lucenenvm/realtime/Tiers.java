package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.store.Directory;
import org.lucenenvm.store.DramDirectory;

/**
 * The storage tiers of one partition and the one place that names their files: the DRAM tier (a
 * {@link DramDirectory} per read-optimized segment: native memory read through the same input
 * classes as the NVM tier, so that Lucene's hot call sites see one input class; see {@link
 * DramDirectory} for why that matters), the NVM tier (one shared {@link Directory}, a namespace
 * {@code seg<id>_} per segment) and the byte accounts of both. Every {@link SegmentVersion} of a
 * Lucene segment is made here, with the action that frees it. Every segment write into the NVM
 * tier first reserves its size in the NVM budget and promises it from the pool ({@link NvmSpace}),
 * and is refused with {@link NvmFullException} before it starts when either has no room.
 */
final class Tiers {
  private static final String SEGMENT_PREFIX = "seg";
  /** An NvmDirectory file takes whole blocks of this size: a segment's pool room per file. */
  private static final long POOL_BLOCK = 4096;

  private final Directory nvm;
  private final MemoryAccounts accounts;
  private final NvmSpace space;
  private final SegmentFiles files;
  private volatile boolean keepNvmFilesOnFree;

  /** Tiers writing segments with {@code config}'s codec, NVM copies in {@code nvm}, alone in it. */
  Tiers(Directory nvm, RtEngineConfig config) {
    this(nvm, config, NvmSpace.of(nvm, config.floodStage()));
  }

  /**
   * Tiers writing segments with {@code config}'s codec, NVM copies in {@code nvm}, taking pool room
   * from {@code space} (shared by the engine's partitions).
   */
  Tiers(Directory nvm, RtEngineConfig config, NvmSpace space) {
    this.nvm = nvm;
    this.accounts = new MemoryAccounts(config.dramBudgetBytes(), config.nvmBudgetBytes());
    this.space = space;
    this.files =
        new SegmentFiles(
            config.codec(), config.similarity(), config.linkedMerges(), config.mergeFactor());
  }

  /** Whether merges may link postings instead of copying them ({@link SegmentFiles#mergesLink}). */
  boolean mergesLink() {
    return files.mergesLink();
  }

  MemoryAccounts accounts() {
    return accounts;
  }

  /** The room of the pool the NVM tier lives in. */
  NvmSpace space() {
    return space;
  }

  /** The NVM directory (shared by every segment of this partition, and its manifest). */
  Directory nvm() {
    return nvm;
  }

  /** The file-name prefix of segment {@code id} in the NVM directory. */
  static String namespace(long id) {
    return SEGMENT_PREFIX + id + "_";
  }

  /** The segment id in a file name {@code seg<id>_...}, or null for other files. */
  static Long segmentIdOf(String name) {
    int end = name.indexOf('_');
    if (!name.startsWith(SEGMENT_PREFIX) || end <= SEGMENT_PREFIX.length()) {
      return null;
    }
    try {
      return Long.parseLong(name.substring(SEGMENT_PREFIX.length(), end));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The view of segment {@code id}'s files in the NVM directory. */
  NamespacedDirectory nvmSegment(long id) {
    return NamespacedDirectory.segment(nvm, namespace(id));
  }

  /** Ids of the segments that have files in the NVM directory. */
  Set<Long> nvmSegmentIds() throws IOException {
    Set<Long> ids = new HashSet<>();
    for (String name : nvm.listAll()) {
      Long id = segmentIdOf(name);
      if (id != null) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** Deletes the NVM files of every segment not in {@code kept}; returns how many segments. */
  int deleteNvmSegmentsExcept(Set<Long> kept) throws IOException {
    Set<Long> deleted = new HashSet<>();
    for (String name : nvm.listAll()) {
      Long id = segmentIdOf(name);
      if (id != null && !kept.contains(id)) {
        nvm.deleteFile(name);
        deleted.add(id);
      }
    }
    if (!deleted.isEmpty()) {
      nvm.syncMetaData();
    }
    return deleted.size();
  }

  /**
   * From now on freeing an NVM version keeps its files: at a graceful shutdown, and once the
   * pipeline failed (then the NVM tier changes no more until a restart, which deletes the files
   * of segments no manifest lists, so what a close finds is what stopped ingestion).
   */
  void keepNvmFilesOnFree() {
    keepNvmFilesOnFree = true;
  }

  /** The version of a live segment; freeing it takes its bytes out of the frozen-live account. */
  SegmentVersion live(LiveSegment segment) {
    return SegmentVersion.live(
        segment, v -> accounts.addFrozenLive(-v.liveSegment().ramBytesUsed()));
  }

  /**
   * Writes live segment {@code id} once, in the final codec, as a read-optimized segment in the
   * DRAM tier (written from its reader straight to the codec: nothing is analyzed twice, no merge
   * runs) and accounts its bytes.
   */
  SegmentVersion flushToDram(long id, LiveSegment live) throws IOException {
    DramDirectory dir = new DramDirectory();
    try {
      files.flush(dir, live.reader(null));
      long bytes = SegmentFiles.bytes(dir);
      SegmentVersion version =
          SegmentVersion.stored(
              SegmentVersion.Tier.DRAM, DirectoryReader.open(dir), dir, bytes, this::freeDram);
      accounts.addDram(bytes);
      return version;
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }

  private void freeDram(SegmentVersion v) throws IOException {
    try {
      v.directory().close(); // the memory goes when the reader's inputs are closed too
    } finally {
      accounts.releaseDram(v.bytes());
    }
  }

  /**
   * Reserves {@code bytes} of the NVM budget and promises them plus {@code slack} (the pool's
   * allocation rounding) from the pool for writing {@code what}, a write of kind {@code write};
   * throws {@link NvmFullException} naming what does not fit (nothing reserved then). Settled by
   * the write ({@link #settleNvm}).
   */
  void reserveNvm(long bytes, long slack, String what, NvmSpace.Write write) {
    accounts.reserveNvm(bytes, what);
    if (!space.tryPromise(bytes + slack, write)) {
      accounts.adjustNvm(-bytes);
      throw space.noRoom(what, bytes + slack, write);
    }
  }

  /** After a write reserved with {@link #reserveNvm}: the budget keeps {@code written} bytes. */
  private void settleNvm(long bytes, long slack, long written, NvmSpace.Write write) {
    accounts.adjustNvm(written - bytes);
    space.release(bytes + slack, write);
  }

  /**
   * Copies DRAM version {@code dram} of segment {@code id} into the NVM tier in bulk and syncs it;
   * throws {@link NvmFullException} when the NVM budget or directory cannot hold it (before the
   * copy starts when the pool has no room to promise, see {@link NvmSpace}).
   */
  SegmentVersion engrave(long id, SegmentVersion dram) throws IOException {
    long bytes = dram.bytes();
    long slack = POOL_BLOCK * dram.directory().listAll().length;
    reserveNvm(bytes, slack, "segment " + id, NvmSpace.Write.ENGRAVE);
    NamespacedDirectory target = nvmSegment(id);
    try {
      SegmentFiles.copyDurably(dram.directory(), target);
      SegmentVersion version = nvmVersion(DirectoryReader.open(target), target, bytes);
      settleNvm(bytes, slack, bytes, NvmSpace.Write.ENGRAVE);
      return version;
    } catch (IOException e) {
      settleNvm(bytes, slack, 0, NvmSpace.Write.ENGRAVE);
      deleteQuietly(target);
      throw nvmFull("NVM directory refused segment " + id, e);
    } catch (RuntimeException e) {
      settleNvm(bytes, slack, 0, NvmSpace.Write.ENGRAVE);
      deleteQuietly(target);
      throw e;
    }
  }

  /**
   * Writes the docs of {@code sources} (those their live docs hold: all of a reader without live
   * docs) as segment {@code id} in the NVM tier; {@code reserved}
   * bytes (and {@code slack}) were reserved for it as a {@link NvmSpace.Write#MERGE} ({@link
   * #reserveNvm}) and are settled against its real size. Once {@code stop} is true the write ends
   * early with {@link MergePolicy.MergeAbortedException} ({@link AbortableMergeDirectory}); like
   * any failure it first deletes what it wrote and returns the reservation. A directory that
   * cannot take it throws {@link NvmFullException}.
   */
  SegmentVersion writeMerged(
      long id, CodecReader[] sources, long reserved, long slack, BooleanSupplier stop)
      throws IOException {
    NamespacedDirectory target = nvmSegment(id);
    try {
      files.write(new AbortableMergeDirectory(target, stop), sources);
      DirectoryReader reader = DirectoryReader.open(target);
      long bytes = SegmentFiles.bytes(target);
      settleNvm(reserved, slack, bytes, NvmSpace.Write.MERGE);
      return nvmVersion(reader, target, bytes);
    } catch (MergePolicy.MergeAbortedException | RuntimeException e) {
      settleNvm(reserved, slack, 0, NvmSpace.Write.MERGE);
      deleteQuietly(target);
      throw e;
    } catch (IOException e) {
      settleNvm(reserved, slack, 0, NvmSpace.Write.MERGE);
      deleteQuietly(target);
      throw nvmFull("NVM directory refused merged segment " + id, e);
    }
  }

  /** Opens segment {@code id} found in the NVM tier at startup and accounts its bytes. */
  SegmentVersion openNvm(long id) throws IOException {
    NamespacedDirectory dir = nvmSegment(id);
    DirectoryReader reader;
    try {
      reader = DirectoryReader.open(dir);
    } catch (IOException e) {
      throw new IOException(
          "segment " + id + " listed in " + Manifest.FILE_NAME + " cannot be opened", e);
    }
    long bytes = SegmentFiles.bytes(dir);
    accounts.adjustNvm(bytes);
    return nvmVersion(reader, dir, bytes);
  }

  private SegmentVersion nvmVersion(DirectoryReader reader, Directory dir, long bytes) {
    return SegmentVersion.stored(SegmentVersion.Tier.NVM, reader, dir, bytes, this::freeNvm);
  }

  private void freeNvm(SegmentVersion v) throws IOException {
    if (!keepNvmFilesOnFree) {
      try {
        SegmentFiles.deleteAll(v.directory());
      } catch (IOException e) {
        // a pool can be too full even to record a deletion: NVM is full, ingestion must stop
        throw nvmFull("NVM directory cannot delete the files of " + v.directory(), e);
      }
      accounts.adjustNvm(-v.bytes());
      space.roomFreed();
    }
  }

  private static NvmFullException nvmFull(String what, IOException cause) {
    NvmFullException full = new NvmFullException(what + ": " + cause);
    full.initCause(cause);
    return full;
  }

  private static void deleteQuietly(Directory dir) {
    try {
      SegmentFiles.deleteAll(dir);
    } catch (IOException | RuntimeException suppressed) {
      // best effort: a later open removes files that no manifest names
    }
  }
}
