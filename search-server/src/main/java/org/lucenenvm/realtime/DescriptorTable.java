package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.similarities.Similarity;

/**
 * The global descriptor table (SPIRIT's GDT): the ordered list of segments queries see. The list
 * is immutable and replaced as a whole (copy on write), so a query reads it with one volatile load;
 * {@link #acquire} then references each segment's current version. Building a snapshot allocates
 * objects and does nothing else: no I/O, no refresh, no lock shared with the writer.
 */
final class DescriptorTable {
  private volatile List<SegmentDescriptor> segments = List.of();

  /** The current segments, oldest first. */
  List<SegmentDescriptor> segments() {
    return segments;
  }

  synchronized void add(SegmentDescriptor descriptor) {
    List<SegmentDescriptor> next = new ArrayList<>(segments);
    next.add(descriptor);
    segments = List.copyOf(next);
  }

  /**
   * Replaces {@code sources} by {@code merged} (at the position of the first source), or just
   * removes them when {@code merged} is null; the caller retires the sources afterwards.
   */
  synchronized void replace(List<SegmentDescriptor> sources, SegmentDescriptor merged) {
    List<SegmentDescriptor> next = new ArrayList<>(segments.size());
    boolean inserted = false;
    for (SegmentDescriptor d : segments) {
      if (sources.contains(d)) {
        if (!inserted && merged != null) {
          next.add(merged);
        }
        inserted = true;
      } else {
        next.add(d);
      }
    }
    if (!inserted) {
      throw new IllegalStateException("merge sources are not in the table");
    }
    segments = List.copyOf(next);
  }

  /** A point-in-time reader over every segment; the caller must close it. */
  RtSnapshot acquire(Similarity similarity)
      throws IOException {
    while (true) {
      List<SegmentDescriptor> current = segments;
      List<SegmentVersion> held = new ArrayList<>(current.size());
      List<LeafReader> leaves = new ArrayList<>(current.size());
      boolean complete = true;
      for (SegmentDescriptor d : current) {
        DeletedDocs deletions = d.deletions();
        SegmentVersion v = d.acquire();
        if (v == null) {
          complete = false;
          break;
        }
        held.add(v);
        LeafReader view = d.view(v, deletions);
        if (view.maxDoc() > 0) {
          leaves.add(view);
        }
      }
      if (complete) {
        return new RtSnapshot(leaves, held, similarity);
      }
      RtSnapshot.release(held);
    }
  }
}
