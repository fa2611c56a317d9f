package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * One document partition (SPIRIT's executor) and the one owner of its state: the descriptor table,
 * the lock its writers take, the segment-id counter, its {@link Tiers} and its {@link Pipeline}.
 * Writes are applied one at a time under the lock; queries never take it. Opening, recovery and
 * closing are {@link PartitionLifecycle}'s.
 *
 * <p>The table never holds more than {@link RtEngineConfig#maxSegments()} segments while merging
 * can make room: a full live segment is replaced by a new one only when the table has a free slot;
 * otherwise it stays the active (searchable) segment and the next write waits, without the lock,
 * until the merger freed a slot.
 */
final class Partition {
  private final RtEngineConfig config;
  private final ReentrantLock writeLock = new ReentrantLock();
  /** Writers waiting for a free segment slot poll the table on this condition of writeLock. */
  private final Condition segmentRoom = writeLock.newCondition();
  /** Time writers waited on {@link #segmentRoom} (written under writeLock). */
  private volatile long segmentWaitNanos;
  private final DescriptorTable table = new DescriptorTable();
  private final AtomicLong nextSegmentId;
  private final Tiers tiers;
  private final Pipeline pipeline;
  /** The live segment taking adds (guarded by writeLock). */
  private SegmentDescriptor active;
  /** Set when close starts: writes are refused from then on (written under writeLock). */
  private volatile boolean writesClosed;

  Partition(RtEngineConfig config, Tiers tiers, long nextSegmentId, String threadPrefix) {
    this.config = config;
    this.tiers = tiers;
    this.nextSegmentId = new AtomicLong(nextSegmentId);
    this.pipeline =
        new Pipeline(config, tiers, table, writeLock, this.nextSegmentId, threadPrefix);
  }

  DescriptorTable table() {
    return table;
  }

  Tiers tiers() {
    return tiers;
  }

  Pipeline pipeline() {
    return pipeline;
  }

  long nextSegmentId() {
    return nextSegmentId.get();
  }

  /** Creates the first live segment and starts the pipeline. */
  void start() {
    writeLock.lock();
    try {
      active = newLiveSegment();
    } finally {
      writeLock.unlock();
    }
    pipeline.start();
    pipeline.mergeLater(active); // restored segments may be over the segment limit
  }

  private SegmentDescriptor newLiveSegment() {
    LiveSegment segment = new LiveSegment(config.schema(), config.segmentSize());
    SegmentDescriptor d =
        new SegmentDescriptor(
            nextSegmentId.getAndIncrement(),
            0,
            config.segmentSize(),
            tiers.live(segment),
            SegmentState.INGESTED);
    table.add(d);
    return d;
  }

  /**
   * Applies one analyzed document: an add (refused when the id exists) or, with {@code replace},
   * an update. A plain add is one publication of the live segment and needs no seqlock.
   */
  void write(InvertedDocument doc, boolean replace) {
    SegmentDescriptor frozenBefore = null;
    SegmentDescriptor frozen = null;
    writeLock.lock();
    try {
      ensureWritable();
      frozenBefore = rollWhenRoom();
      LiveSegment segment = active.global().liveSegment();
      if (replace) {
        table.beginWrite();
        try {
          deleteLive(doc.id());
          segment.add(doc);
        } finally {
          table.endWrite();
        }
      } else {
        if (locate(doc.id()) != null) {
          throw new IllegalArgumentException(
              "document '" + doc.source().id() + "' already exists; use update to replace it");
        }
        segment.add(doc);
      }
      if (segment.isFull() && hasSegmentRoom()) {
        frozen = roll();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
    }
    // Outside the lock: this writer waits for the indexer (backpressure), nobody else does.
    try {
      if (frozenBefore != null) {
        pipeline.enqueueFrozen(frozenBefore);
      }
      if (frozen != null) {
        pipeline.enqueueFrozen(frozen);
      }
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    }
  }

  /** Freezes the full active segment and starts a new one; returns the frozen one. Lock held. */
  private SegmentDescriptor roll() {
    SegmentDescriptor frozen = active;
    tiers.accounts().addFrozenLive(frozen.global().liveSegment().ramBytesUsed());
    active = newLiveSegment();
    return frozen;
  }

  private boolean hasSegmentRoom() {
    return table.segments().size() < config.maxSegments() || pipeline.cannotMakeSegmentRoom();
  }

  /**
   * When the active segment is full (it was left so for want of a slot), waits, releasing the lock
   * meanwhile, until the table has a free slot, then rolls; returns the frozen segment or null.
   * Lock held.
   */
  private SegmentDescriptor rollWhenRoom() {
    long start = System.nanoTime();
    boolean waited = false;
    try {
      while (active.global().liveSegment().isFull()) {
        if (hasSegmentRoom()) {
          return roll();
        }
        waited = true;
        segmentRoom.await(1, TimeUnit.MILLISECONDS);
        ensureWritable();
      }
      return null;
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    } finally {
      if (waited) {
        segmentWaitNanos += System.nanoTime() - start;
      }
    }
  }

  /** Deletes the document with {@code id}; returns whether there was one. */
  boolean delete(BytesRef id) {
    writeLock.lock();
    try {
      ensureWritable();
      return deleteLive(id);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writeLock.unlock();
    }
  }

  private void ensureWritable() {
    if (writesClosed) {
      throw new IllegalStateException("engine is closed");
    }
    pipeline.checkHealthy();
  }

  /** Refuses writes from now on; returns the live segment that took adds last. */
  SegmentDescriptor closeWrites() {
    writeLock.lock();
    try {
      writesClosed = true;
      return active;
    } finally {
      writeLock.unlock();
    }
  }

  /** A segment and a doc id in it. */
  private record Location(SegmentDescriptor segment, int doc) {}

  private boolean deleteLive(BytesRef id) throws IOException {
    Location loc = locate(id);
    if (loc == null) {
      return false;
    }
    SegmentDescriptor d = loc.segment();
    d.setDeletions(DeletedDocs.delete(d.deletions(), loc.doc(), d.capacity()));
    if (!d.isLive()) {
      table.changed();
    }
    return true;
  }

  /** Finds the live doc with {@code id}, newest segment first. Write lock held. */
  private Location locate(BytesRef id) throws IOException {
    List<SegmentDescriptor> segments = table.segments();
    for (int i = segments.size() - 1; i >= 0; i--) {
      SegmentDescriptor d = segments.get(i);
      IdFilter filter = d.idFilter();
      if (filter != null && !filter.mightContain(id)) {
        continue;
      }
      DeletedDocs deletions = d.deletions();
      SegmentVersion v = d.acquire();
      if (v == null) {
        continue;
      }
      try {
        LeafReader reader = v.unfiltered();
        Terms terms = reader.terms(RtSchema.ID_FIELD);
        if (terms == null) {
          continue;
        }
        TermsEnum te = terms.iterator();
        if (!te.seekExact(id)) {
          continue;
        }
        PostingsEnum postings = te.postings(null, PostingsEnum.NONE);
        for (int doc = postings.nextDoc();
            doc != PostingsEnum.NO_MORE_DOCS;
            doc = postings.nextDoc()) {
          if (deletions == null || deletions.isLive(doc)) {
            return new Location(d, doc);
          }
        }
      } finally {
        v.decRef();
      }
    }
    return null;
  }

  /** Sizes, segment states and stage times. */
  RtEngineStats stats() throws IOException {
    Map<SegmentState, Integer> states = new EnumMap<>(SegmentState.class);
    List<SegmentDescriptor> segments = table.segments();
    for (SegmentDescriptor d : segments) {
      states.merge(d.state(), 1, Integer::sum);
    }
    long docs = 0;
    try (TableView.Bound bound = table.bind()) {
      for (var reader : bound.readers()) {
        docs += reader.numDocs();
      }
    }
    SegmentDescriptor current = active;
    LiveSegment live = current == null ? null : current.global().liveSegment();
    long liveBytes = live == null ? 0 : live.ramBytesUsed();
    MemoryAccounts accounts = tiers.accounts();
    return new RtEngineStats(
        docs,
        segments.size(),
        segments.size(),
        states,
        accounts.dram(),
        accounts.peakDram(),
        accounts.largestDramSegment(),
        liveBytes + accounts.frozenLive(),
        accounts.nvm(),
        segmentWaitNanos,
        pipeline.stageStats());
  }

  /** The descriptor table, oldest segment first. */
  List<RtSegmentInfo> segments() {
    List<RtSegmentInfo> infos = new ArrayList<>();
    for (SegmentDescriptor d : table.segments()) {
      infos.add(RtSegmentInfo.of(d));
    }
    return infos;
  }

  /** Drops the table's references to every segment (close). */
  void retireAll() throws IOException {
    table.close();
    for (SegmentDescriptor d : table.segments()) {
      d.retire();
    }
  }
}
