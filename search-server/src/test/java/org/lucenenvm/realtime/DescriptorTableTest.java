package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The descriptor table on its own: one shared view per version, bound live tails, references. */
public class DescriptorTableTest extends LuceneTestCase {
  private static final RtSchema SCHEMA = RtSchema.builder().text("body").build();
  private final DocumentInverter inverter =
      new DocumentInverter(SCHEMA, new StandardAnalyzer(), new BM25Similarity());

  private SegmentDescriptor liveDescriptor(long id, LiveSegment segment) {
    return new SegmentDescriptor(
        id, 0, 100, SegmentVersion.live(segment, v -> {}), SegmentState.INGESTED);
  }

  private void add(LiveSegment segment, String id) {
    segment.add(inverter.invert(new RtDocument(id, Map.of("body", "hello " + id))));
  }

  private static int docs(TableView.Bound bound) {
    int docs = 0;
    for (LeafReader r : bound.leaves()) {
      docs += r.numDocs();
    }
    return docs;
  }

  public void testQueriesOfOneVersionShareOneViewAndBindTheLiveTail() throws IOException {
    DescriptorTable table = new DescriptorTable();
    LiveSegment segment = new LiveSegment(SCHEMA, 100);
    table.add(liveDescriptor(0, segment));
    add(segment, "a");
    try (TableView.Bound first = table.bind()) {
      add(segment, "b"); // a plain add: same table version, a later query sees it
      try (TableView.Bound second = table.bind()) {
        assertSame(first.view(), second.view());
        assertEquals(1, docs(first));
        assertEquals(2, docs(second));
      }
    }
    long before = table.version();
    LiveSegment next = new LiveSegment(SCHEMA, 100);
    table.add(liveDescriptor(1, next));
    add(next, "c");
    assertTrue(table.version() > before);
    try (TableView.Bound bound = table.bind()) {
      assertEquals(3, docs(bound));
    }
  }

  public void testAReplacedViewLetsGoOfItsVersionsWhenItsLastQueryEnds() throws IOException {
    DescriptorTable table = new DescriptorTable();
    SegmentDescriptor d = liveDescriptor(0, new LiveSegment(SCHEMA, 100));
    table.add(d);
    SegmentVersion version = d.global();
    TableView.Bound held = table.bind();
    assertEquals(1, version.readers()); // the shared view's reference
    table.changed();
    assertEquals(1, version.readers()); // the old view is no longer shared, but its query holds it
    held.close();
    assertEquals(0, version.readers());
  }

  public void testABuildThatMeetsARetiredSegmentHoldsNothing() throws IOException {
    SegmentDescriptor kept = liveDescriptor(0, new LiveSegment(SCHEMA, 100));
    SegmentDescriptor retired = liveDescriptor(1, new LiveSegment(SCHEMA, 100));
    retired.retire();
    assertNull(TableView.build(0, List.of(kept, retired), new StatisticsEpoch(0, null)));
    assertEquals(0, kept.global().readers());
  }
}
