package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.codec.NvmCodec;

/**
 * What a merge does with its sources' deleted documents: keeps them masked (every document, doc
 * ids docBase + d, the sources' deletions carried) at or below the configured deleted share, drops
 * them above it; deletes that reach the sources while the merge writes end up in the merged
 * segment either way.
 */
public class MergeDeletionsTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtSchema.builder().text("body").build();
  private static final int DOCS = 10;

  /** Three engraved segments s0..s2 of {@value #DOCS} docs each, ids "s<segment>d<doc>". */
  private static List<SegmentDescriptor> sources(
      RtEngineConfig config, Tiers tiers, DescriptorTable table) throws IOException {
    return EngravedSegments.build(
        SCHEMA,
        config,
        tiers,
        table,
        3,
        DOCS,
        (id, d) -> new RtDocument("s" + (id - 1) + "d" + d, Map.of("body", "word" + d)));
  }

  private static void delete(SegmentDescriptor d, int doc) {
    d.setDeletions(DeletedDocs.delete(d.deletions(), doc, d.capacity()));
  }

  /** The ids of the merged segment's docs, with "-" before deleted ones. */
  private static List<String> docs(SegmentDescriptor merged) throws IOException {
    SegmentVersion v = merged.acquire();
    try {
      LeafReader reader = v.unfiltered();
      BinaryDocValues ids = reader.getBinaryDocValues(RtSchema.ID_FIELD);
      List<String> docs = new ArrayList<>();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        assertTrue(ids.advanceExact(doc));
        DeletedDocs deletions = merged.deletions();
        boolean live = deletions == null || deletions.isLive(doc);
        docs.add((live ? "" : "-") + ids.binaryValue().utf8ToString());
      }
      return docs;
    } finally {
      v.decRef();
    }
  }

  /**
   * Merges the three sources after deleting s0d1 and s2d9, with a delete of s1d5 arriving while
   * the merge writes; returns the merged segment's docs.
   */
  private List<String> mergeWithDeletions(double deletesPctAllowed, int expectedMaxDoc)
      throws IOException {
    RtEngineConfig config =
        RtEngineConfig.defaults(SCHEMA)
            .withCodec(new NvmCodec()) // deletions are kept only where merges link
            .withLinkedMerges(true)
            .withPolicy(PipelinePolicy.EAGER_ENGRAVE_EAGER_POINTER)
            .withMergeDeletesPctAllowed(deletesPctAllowed);
    try (Directory nvm = new ByteBuffersDirectory()) {
      Tiers tiers = new Tiers(nvm, config);
      DescriptorTable table = new DescriptorTable();
      List<SegmentDescriptor> sources = sources(config, tiers, table);
      delete(sources.get(0), 1);
      delete(sources.get(2), 9);
      ReentrantLock writeLock = new ReentrantLock();
      Merger merger =
          new Merger(
              config, tiers, new PartitionTable(table, writeLock, 4), Pipeline.Checkpoint.NONE);
      AtomicBoolean deletedDuringMerge = new AtomicBoolean();
      assertTrue(
          merger.merge(
              sources,
              () -> {
                // the merge's output directory asks on each file: a delete arrives meanwhile
                if (deletedDuringMerge.compareAndSet(false, true)) {
                  writeLock.lock();
                  try {
                    delete(sources.get(1), 5);
                  } finally {
                    writeLock.unlock();
                  }
                }
                return false;
              }));
      assertTrue(deletedDuringMerge.get());
      assertEquals(1, table.segments().size());
      SegmentDescriptor merged = table.segments().get(0);
      assertEquals(SegmentState.MERGED, merged.state());
      assertEquals(expectedMaxDoc, merged.global().maxDoc());
      assertEquals(expectedMaxDoc, merged.capacity());
      assertEquals(expectedMaxDoc - 30 + 3, merged.deletions().count());
      List<String> docs = docs(merged);
      table.releaseView();
      merged.retire();
      return docs;
    }
  }

  private static List<String> expected(boolean keptDeletions) {
    List<String> docs = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      for (int d = 0; d < DOCS; d++) {
        boolean deletedBefore = (s == 0 && d == 1) || (s == 2 && d == 9);
        boolean deletedDuring = s == 1 && d == 5;
        if (deletedBefore && !keptDeletions) {
          continue;
        }
        docs.add((deletedBefore || deletedDuring ? "-" : "") + "s" + s + "d" + d);
      }
    }
    return docs;
  }

  public void testMergeAtOrBelowTheShareKeepsDeletedDocumentsMasked() throws IOException {
    // 2 of 30 deleted: 6.7%
    assertEquals(expected(true), mergeWithDeletions(100, 30));
    assertEquals(expected(true), mergeWithDeletions(2 * 100.0 / 30, 30));
  }

  public void testMergeAboveTheShareDropsDeletedDocuments() throws IOException {
    assertEquals(expected(false), mergeWithDeletions(0, 28));
    assertEquals(expected(false), mergeWithDeletions(6, 28));
  }
}
