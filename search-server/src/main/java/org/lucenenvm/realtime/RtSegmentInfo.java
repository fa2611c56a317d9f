package org.lucenenvm.realtime;

/**
 * One row of the descriptor table, for monitoring.
 *
 * @param id segment id
 * @param state life-cycle state
 * @param level merge level (0 = flushed, not merged)
 * @param maxDoc documents in the segment (live segment: published so far)
 * @param deletedDocs deleted documents
 * @param queryTier where queries read it: LIVE, DRAM or NVM
 * @param dramBytes bytes of its DRAM copy (0 when none)
 * @param nvmBytes bytes of its NVM copy (0 when none)
 * @param queryReaders queries currently holding the version queries read (SPIRIT's D-/N-lock)
 */
public record RtSegmentInfo(
    long id,
    SegmentState state,
    int level,
    int maxDoc,
    int deletedDocs,
    String queryTier,
    long dramBytes,
    long nvmBytes,
    int queryReaders) {

  static RtSegmentInfo of(SegmentDescriptor d) {
    SegmentVersion global = d.global();
    SegmentVersion dram = d.dram();
    SegmentVersion nvm = d.nvm();
    DeletedDocs deletions = d.deletions();
    return new RtSegmentInfo(
        d.id(),
        d.state(),
        d.level(),
        global.maxDoc(),
        deletions == null ? 0 : deletions.count(),
        global.tier().name(),
        dram == null ? 0 : dram.bytes(),
        nvm == null ? 0 : nvm.bytes(),
        global.readers());
  }
}
