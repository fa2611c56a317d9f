package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * One physical copy of a segment that queries can read: the live segment, its read-optimized DRAM
 * copy, or its NVM copy. Reference counted: the descriptor table holds one reference while the
 * version is linked, every query snapshot one more (SPIRIT's D-lock / N-lock). When the count drops
 * to zero the version is freed: readers closed and, through the free action, memory or files
 * released.
 */
final class SegmentVersion {
  /** Where a version lives. */
  enum Tier {
    LIVE,
    DRAM,
    NVM
  }

  /** What freeing a version does besides closing its reader. */
  @FunctionalInterface
  interface FreeAction {
    void free(SegmentVersion version) throws IOException;
  }

  private final Tier tier;
  private final LiveSegment live;
  private final DirectoryReader reader;
  private final CodecReader segment;
  private final Directory directory;
  private final long bytes;
  private final FreeAction freeAction;
  private final AtomicInteger refs = new AtomicInteger(1);

  private SegmentVersion(
      Tier tier,
      LiveSegment live,
      DirectoryReader reader,
      Directory directory,
      long bytes,
      FreeAction freeAction) {
    this.tier = tier;
    this.live = live;
    this.reader = reader;
    this.segment = reader == null ? null : (CodecReader) reader.leaves().get(0).reader();
    this.directory = directory;
    this.bytes = bytes;
    this.freeAction = freeAction;
  }

  static SegmentVersion live(LiveSegment segment, FreeAction freeAction) {
    return new SegmentVersion(Tier.LIVE, segment, null, null, 0, freeAction);
  }

  /**
   * A version over a directory holding exactly one committed Lucene segment; {@code bytes} is the
   * size of its files.
   */
  static SegmentVersion stored(
      Tier tier, DirectoryReader reader, Directory directory, long bytes, FreeAction freeAction) {
    if (reader.leaves().size() != 1) {
      throw new IllegalStateException(
          "expected exactly one segment in " + directory + ", found " + reader.leaves().size());
    }
    return new SegmentVersion(tier, null, reader, directory, bytes, freeAction);
  }

  Tier tier() {
    return tier;
  }

  /** The live segment (LIVE tier only). */
  LiveSegment liveSegment() {
    return live;
  }

  /** The Lucene segment (DRAM and NVM tiers only). */
  CodecReader segment() {
    return segment;
  }

  /** The directory holding the segment's files (DRAM and NVM tiers only). */
  Directory directory() {
    return directory;
  }

  /** Bytes of the segment's files (DRAM and NVM tiers). */
  long bytes() {
    return bytes;
  }

  /** Doc count of this version (live: the published count). */
  int maxDoc() {
    return live != null ? live.published() : segment.maxDoc();
  }

  /** A per-query leaf view with {@code deletions} applied. */
  LeafReader view(DeletedDocs deletions) {
    return live != null ? live.reader(deletions) : new LiveDocsCodecReader(segment, deletions);
  }

  /** The version's documents without deletions applied. */
  LeafReader unfiltered() {
    return live != null ? live.reader(null) : segment;
  }

  /** Drops one reference to each of {@code versions}, trying all before rethrowing a failure. */
  static void releaseAll(List<SegmentVersion> versions) throws IOException {
    IOUtils.applyToAll(versions, SegmentVersion::decRef);
  }

  /** Takes a reference unless the version is already freed. */
  boolean tryIncRef() {
    int count;
    while ((count = refs.get()) > 0) {
      if (refs.compareAndSet(count, count + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Queries currently holding this version (references beyond the table's own). */
  int readers() {
    return Math.max(0, refs.get() - 1);
  }

  /** Drops a reference; the last one frees the version. */
  void decRef() throws IOException {
    int count = refs.decrementAndGet();
    if (count == 0) {
      try {
        if (reader != null) {
          reader.close();
        }
      } finally {
        freeAction.free(this);
      }
    } else if (count < 0) {
      throw new IllegalStateException("segment version released too often");
    }
  }
}
