package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** Test fixture: engraved segments built through the pipeline's own flush and engrave stages. */
final class EngravedSegments {
  /** The document with index {@code doc} of the segment with id {@code segmentId}. */
  @FunctionalInterface
  interface DocumentSource {
    RtDocument document(long segmentId, int doc);
  }

  private EngravedSegments() {}

  /**
   * Adds {@code count} segments (ids 1..count) of {@code docs} documents each to {@code table},
   * each flushed and engraved; returns their descriptors in id order.
   */
  static List<SegmentDescriptor> build(
      RtSchema schema,
      RtEngineConfig config,
      Tiers tiers,
      DescriptorTable table,
      int count,
      int docs,
      DocumentSource source)
      throws IOException {
    DocumentInverter inverter =
        new DocumentInverter(schema, config.analyzer(), config.similarity());
    Flusher flusher =
        new Flusher(tiers, new PartitionTable(table, new ReentrantLock(), count + 1));
    Engraver engraver = new Engraver(tiers, () -> {}, () -> true);
    List<SegmentDescriptor> segments = new ArrayList<>();
    for (long id = 1; id <= count; id++) {
      LiveSegment segment = new LiveSegment(schema, docs);
      for (int doc = 0; doc < docs; doc++) {
        segment.add(inverter.invert(source.document(id, doc)));
      }
      SegmentDescriptor descriptor =
          new SegmentDescriptor(id, 0, docs, tiers.live(segment), SegmentState.INGESTED);
      table.add(descriptor);
      flusher.flush(descriptor);
      engraver.engrave(descriptor);
      segments.add(descriptor);
    }
    return segments;
  }
}
