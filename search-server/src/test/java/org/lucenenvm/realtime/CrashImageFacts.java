package org.lucenenvm.realtime;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.lucenenvm.realtime.IngestLogFormat.Decoded;
import org.lucenenvm.realtime.IngestLogFormat.Head;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmRegion;

/**
 * Test support: what a crash image holds that its recovery will have to deal with, read from the
 * image without changing it (before an engine opens it).
 *
 * @param manifestReplacing a manifest replacement was under way: {@code rt.manifest.tmp} exists
 * @param manifestRenamePending the old manifest is deleted and the new one not yet renamed: only
 *     {@code rt.manifest.tmp} exists (the next open must complete the rename)
 * @param logWrapsAround the ingest log's records, from its head, run past the end of the ring
 *     and on from its start: recovery reads across the wrap
 */
record CrashImageFacts(boolean manifestReplacing, boolean manifestRenamePending, boolean logWrapsAround) {
  private static final String MANIFEST_TEMP = Manifest.FILE_NAME + ".tmp";

  /** The facts of the single-partition engine image in {@code nvm}. */
  static CrashImageFacts of(NvmDirectory nvm) throws IOException {
    List<String> files = Arrays.asList(nvm.listAll());
    boolean replacing = files.contains(MANIFEST_TEMP);
    return new CrashImageFacts(
        replacing,
        replacing && !files.contains(Manifest.FILE_NAME),
        files.contains(PartitionLifecycle.LOG_NAME) && logWrapsAround(nvm));
  }

  /** Whether the log's valid records, read from its head as recovery reads them, wrap around. */
  private static boolean logWrapsAround(NvmDirectory nvm) throws IOException {
    try (NvmRegion region = nvm.openRegion(PartitionLifecycle.LOG_NAME)) {
      MemorySegment file = region.segment();
      if (IngestLogFormat.isBlank(file) || IngestLogFormat.headerProblem(file) != null) {
        return false;
      }
      Head head = IngestLog.currentHead(region);
      LogRing ring = new LogRing(region, IngestLogFormat.HEADER_SIZE, IngestLogFormat.capacity(file));
      long end = head.position();
      long sequence = head.sequence();
      while (end < head.position() + ring.capacity()) {
        Decoded decoded = IngestLogFormat.decode(ring, end);
        if (!decoded.valid() || decoded.record().sequence() != sequence) {
          break;
        }
        end += decoded.space();
        sequence++;
      }
      return end > head.position()
          && Math.floorDiv(head.position(), ring.capacity()) != Math.floorDiv(end - 1, ring.capacity());
    }
  }
}
