package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.IOUtils;

/**
 * A point-in-time view of an engine: every document acknowledged before the snapshot was taken,
 * minus deletions acknowledged before it, over all partitions. Built from each partition's shared
 * view of its current table version plus the live tail bound now; holds references to the segment
 * versions it reads (SPIRIT's D-/N-locks) until closed, so close it promptly.
 *
 * <p>{@link #reader()} is an ordinary composite {@link IndexReader} over the snapshot's leaves
 * (incRef/decRef work as usual; the references are released when its reference count reaches
 * zero). {@link #searcher()} scores with
 * the statistics of all partitions together, so scores equal those of one index holding every
 * document; with a query executor each partition is searched as one slice of its own.
 */
public final class RtSnapshot implements Closeable {
  private final SnapshotReader reader;
  private final SnapshotSearcher searcher;

  private final Similarity similarity;
  private final Executor executor;
  private final EpochStatistics epoch;

  private RtSnapshot(
      SnapshotReader reader, Similarity similarity, Executor executor, StatisticsMode statistics) {
    this.reader = reader;
    this.similarity = similarity;
    this.executor = executor;
    this.epoch = statistics == StatisticsMode.PER_EPOCH ? reader.epochStatistics() : null;
    this.searcher = newSearcher(reader);
  }

  /** A searcher over {@code r} (this snapshot's reader or a wrapper with the same leaves). */
  private SnapshotSearcher newSearcher(IndexReader r) {
    SnapshotSearcher s =
        executor == null
            ? new SnapshotSearcher(r, null, epoch)
            : new PartitionSlicedSearcher(r, executor, epoch, reader.leavesPerPartition);
    s.setSimilarity(similarity);
    s.setQueryCache(null);
    return s;
  }

  /** Binds a snapshot of {@code partitions}; releases whatever it bound if that fails. */
  static RtSnapshot of(
      Partition[] partitions, Similarity similarity, Executor executor, StatisticsMode statistics)
      throws IOException {
    List<TableView.Bound> bounds = new ArrayList<>(partitions.length);
    boolean success = false;
    try {
      List<LeafReader> leaves = new ArrayList<>();
      int[] leavesPerPartition = new int[partitions.length];
      for (int p = 0; p < partitions.length; p++) {
        TableView.Bound bound = partitions[p].table().bind();
        bounds.add(bound);
        leaves.addAll(bound.leaves());
        leavesPerPartition[p] = bound.leaves().size();
      }
      SnapshotReader reader = new SnapshotReader(leaves, bounds, leavesPerPartition);
      success = true;
      return new RtSnapshot(reader, similarity, executor, statistics);
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(bounds);
      }
    }
  }

  /** The snapshot's reader. */
  public IndexReader reader() {
    return reader;
  }

  /**
   * A searcher over {@link #reader()} with the engine's similarity and no query cache; set a
   * {@link org.apache.lucene.index.QueryTimeout} on it as on any searcher.
   */
  public IndexSearcher searcher() {
    return searcher;
  }

  /**
   * The top {@code k} hits of {@code query} in this snapshot: the one search path of the engine
   * ({@link RtEngine#search} runs it on a fresh snapshot). As with {@link
   * IndexSearcher#search(Query, int)}, the total hit count is exact up to 1,000 hits and may be a
   * lower bound beyond. With a {@code timeout} (may be null) the search stops collecting once it
   * says so and the result reports {@link RtSearchResult#timedOut()}, with the hits found until
   * then. Without {@code withStoredFields} the hits carry only scores (id null, no fields), as a
   * bare {@link TopDocs} would. With a timeout, term expansion (a query's rewrite) is bounded by
   * it too ({@link TimeLimitedReader}); if it runs out there, before any hit is collected, the
   * result is empty and timed out.
   */
  public RtSearchResult search(Query query, int k, QueryTimeout timeout, boolean withStoredFields)
      throws IOException {
    IndexSearcher s = searcherFor(timeout);
    TopDocs top;
    try {
      top = s.search(query, k);
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      return timedOutBeforeCollection();
    }
    return result(top, s, withStoredFields);
  }

  /** {@code top}, found by {@code s}, as a search result, with or without stored fields. */
  static RtSearchResult result(TopDocs top, IndexSearcher s, boolean withStoredFields)
      throws IOException {
    List<RtHit> hits = new ArrayList<>(top.scoreDocs.length);
    StoredFields stored = withStoredFields ? s.storedFields() : null;
    for (ScoreDoc sd : top.scoreDocs) {
      hits.add(stored == null ? new RtHit(null, sd.score, Map.of()) : hit(stored, sd));
    }
    return new RtSearchResult(top.totalHits, hits, s.timedOut(), CacheOutcome.BYPASSED);
  }

  /** The result of a query whose time ran out while it expanded terms, before collection. */
  static RtSearchResult timedOutBeforeCollection() {
    return new RtSearchResult(
        new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
        List.of(),
        true,
        CacheOutcome.BYPASSED);
  }

  /**
   * The searcher of one query: this snapshot's, or with a {@code timeout} one whose collection and
   * term expansion it bounds.
   */
  SnapshotSearcher searcherFor(QueryTimeout timeout) throws IOException {
    SnapshotSearcher s =
        timeout == null ? searcher : newSearcher(TimeLimitedReader.wrap(reader, timeout));
    s.setTimeout(timeout);
    return s;
  }

  /**
   * The Lucene segments of this snapshot's statistics epoch, in leaf order: every leaf of {@link
   * #reader()} is one of these or part of {@link #tailLeaves()}.
   */
  List<SnapshotSegment> segments() {
    return reader.layout().segments();
  }

  /**
   * The leaf ordinals of the tail, ascending: the live segments' documents bound by this snapshot
   * and any Lucene segment outside the statistics epoch.
   */
  int[] tailLeaves() {
    return reader.layout().tailLeaves();
  }

  /** The segments of {@link #tailLeaves()}, in the same order. */
  List<TailLeaf> tail() {
    return reader.layout().tail();
  }

  /**
   * One Lucene segment of a snapshot.
   *
   * @param partition the partition that holds it
   * @param id its segment id (unique within the partition)
   * @param deletionCount its deleted documents in this snapshot
   * @param leaf its leaf ordinal in the snapshot's reader
   */
  record SnapshotSegment(int partition, long id, int deletionCount, int leaf) {}

  /**
   * One leaf of a snapshot's tail.
   *
   * @param partition the partition that holds it
   * @param id its segment id (unique within the partition; a live segment's flush keeps it)
   * @param live whether it is a live segment (its documents bound by this snapshot) rather than a
   *     Lucene segment outside the statistics epoch
   * @param deletionCount its deleted documents in this snapshot
   * @param leaf its leaf ordinal in the snapshot's reader
   */
  record TailLeaf(int partition, long id, boolean live, int deletionCount, int leaf) {}

  /** The epoch segments and the tail leaves of a snapshot. */
  private record Layout(List<SnapshotSegment> segments, int[] tailLeaves, List<TailLeaf> tail) {
    static Layout of(List<TableView.Bound> bounds, int[] leavesPerPartition) {
      List<SnapshotSegment> lucene = new ArrayList<>();
      List<TailLeaf> tail = new ArrayList<>();
      int leaf = 0;
      for (int p = 0; p < bounds.size(); p++) {
        TableView.Bound bound = bounds.get(p);
        TableView view = bound.view();
        long[] ids = view.segmentIds();
        int[] deletionCounts = view.deletionCounts();
        boolean[] inEpoch = view.inEpoch();
        for (int i = 0; i < ids.length; i++) {
          if (inEpoch[i]) {
            lucene.add(new SnapshotSegment(p, ids[i], deletionCounts[i], leaf++));
          } else {
            tail.add(new TailLeaf(p, ids[i], false, deletionCounts[i], leaf++));
          }
        }
        for (int i = 0; i < leavesPerPartition[p] - ids.length; i++) {
          tail.add(new TailLeaf(p, bound.liveIds()[i], true, bound.liveDeletionCounts()[i], leaf++));
        }
      }
      int[] tailLeaves = new int[tail.size()];
      for (int i = 0; i < tailLeaves.length; i++) {
        tailLeaves[i] = tail.get(i).leaf();
      }
      return new Layout(List.copyOf(lucene), tailLeaves, List.copyOf(tail));
    }
  }

  /** Loads the stored fields of one hit. */
  static RtHit hit(StoredFields stored, ScoreDoc sd) throws IOException {
    Document doc = stored.document(sd.doc);
    Map<String, String> fields = new LinkedHashMap<>();
    String id = null;
    for (IndexableField f : doc.getFields()) {
      if (RtSchema.ID_FIELD.equals(f.name())) {
        id = f.stringValue();
      } else {
        fields.put(f.name(), f.stringValue());
      }
    }
    return new RtHit(id, sd.score, fields);
  }

  /** Releases this snapshot's reference to the reader. */
  @Override
  public void close() throws IOException {
    reader.decRef();
  }

  /** The leaves of a snapshot's bound table views, which it releases when closed. */
  private static final class SnapshotReader extends LeafListReader {
    private final List<TableView.Bound> bounds;
    private final int[] leavesPerPartition;
    private Layout layout;

    SnapshotReader(
        List<LeafReader> leaves, List<TableView.Bound> bounds, int[] leavesPerPartition) {
      super(leaves);
      this.bounds = bounds;
      this.leavesPerPartition = leavesPerPartition;
    }

    /** Which leaves are epoch segments and which the tail, worked out on first (cache) use. */
    Layout layout() {
      Layout known = layout;
      if (known == null) {
        known = Layout.of(bounds, leavesPerPartition);
        layout = known; // a racing thread computes the same layout
      }
      return known;
    }

    EpochStatistics epochStatistics() {
      List<CommittedStatistics> each = new ArrayList<>(bounds.size());
      for (TableView.Bound b : bounds) {
        each.add(b.view().statistics());
      }
      return new EpochStatistics(each);
    }

    @Override
    protected void doClose() throws IOException {
      IOUtils.close(bounds);
    }
  }

  /**
   * A snapshot's searcher: Lucene's, with the statistics of the epoch under {@link
   * StatisticsMode#PER_EPOCH}, and able to search a subset of its leaves (for the result cache).
   */
  static class SnapshotSearcher extends IndexSearcher {
    /** As {@link IndexSearcher#search(Query, int)} counts: exactly up to this many hits. */
    private static final int TOTAL_HITS_THRESHOLD = 1000;

    private final EpochStatistics epoch;

    SnapshotSearcher(IndexReader reader, Executor executor, EpochStatistics epoch) {
      super(reader, executor);
      this.epoch = epoch;
    }

    @Override
    public CollectionStatistics collectionStatistics(String field) throws IOException {
      return epoch == null ? super.collectionStatistics(field) : epoch.collectionStatistics(field);
    }

    @Override
    public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
        throws IOException {
      return epoch == null
          ? super.termStatistics(term, docFreq, totalTermFreq)
          : epoch.termStatistics(term);
    }

    /**
     * Searches {@code ctx} up to its {@code maxDoc} instead of {@link
     * org.apache.lucene.search.DocIdSetIterator#NO_MORE_DOCS}, the bound Lucene gives a whole
     * leaf. Lucene 10.5's top-level conjunction ({@code BlockMaxConjunctionBulkScorer}) scores in
     * windows of at most 65,536 doc ids up to that bound and leaves its lead clause where it is
     * when a window cannot beat the minimum competitive score. Lucene104 reports a maximal impact
     * past a list's last full block, so there the lead always runs out; the live tail reports its
     * exact impacts, so once the earlier leaves hold the top hits, every window of the tail is
     * non-competitive and the scorer stepped through 32,768 empty ones (each evaluating every
     * clause's block-max score) on each conjunctive query. No document lies past {@code maxDoc},
     * so no result changes ({@code SnapshotSearcherLeafBoundTest}).
     */
    @Override
    protected void searchLeaf(
        LeafReaderContext ctx, int minDocId, int maxDocId, Weight weight, Collector collector)
        throws IOException {
      super.searchLeaf(ctx, minDocId, Math.min(maxDocId, ctx.reader().maxDoc()), weight, collector);
    }

    /**
     * The top {@code k} hits of {@code query} in the leaves {@code leafOrds} only (ascending), in
     * this thread, scored exactly as {@link #search(Query, int)} scores them; doc ids are those of
     * the whole reader, and ties break by doc id as there.
     */
    TopDocs searchLeaves(Query query, int k, int[] leafOrds) throws IOException {
      return searchLeaves(weightFor(query), k, leafOrds);
    }

    /**
     * The weight {@link #searchLeaves(Query, int, int[])} searches {@code query} with; one weight
     * serves searches of disjoint leaf subsets (a miss's epoch segments, then its tail) without
     * looking its terms up in every leaf again.
     */
    Weight weightFor(Query query) throws IOException {
      return createWeight(rewrite(query), newCollector(1).scoreMode(), 1f);
    }

    /** Whether this searcher scores with epoch statistics ({@link StatisticsMode#PER_EPOCH}). */
    boolean scoresWithEpochStatistics() {
      return epoch != null;
    }

    /**
     * The states of {@code term} in the leaves {@code leafOrds} only, for this searcher's reader: a
     * {@link TermQuery} given them looks the term up nowhere else; its docFreq and totalTermFreq
     * are those leaves' counts.
     */
    TermStates termStatesIn(Term term, int[] leafOrds) throws IOException {
      IndexReaderContext top = getTopReaderContext();
      List<LeafReaderContext> leaves = top.leaves();
      TermStates states = new TermStates(top);
      for (int ord : leafOrds) {
        TermsEnum terms = Terms.getTerms(leaves.get(ord).reader(), term.field()).iterator();
        if (terms.seekExact(term.bytes())) {
          states.register(terms.termState(), ord, terms.docFreq(), terms.totalTermFreq());
        }
      }
      return states;
    }

    /** {@link #searchLeaves(Query, int, int[])} with a weight of a {@code weightFor} method. */
    TopDocs searchLeaves(Weight weight, int k, int[] leafOrds) throws IOException {
      List<LeafReaderContext> leaves = getIndexReader().leaves();
      LeafReaderContextPartition[] parts = new LeafReaderContextPartition[leafOrds.length];
      for (int i = 0; i < leafOrds.length; i++) {
        parts[i] = LeafReaderContextPartition.createForEntireSegment(leaves.get(leafOrds[i]));
      }
      return searchPartitions(weight, k, parts, 0f);
    }

    /**
     * {@link #searchLeaves(Weight, int, int[])} over document ranges of leaves ({@code parts}
     * disjoint, in doc id order), for the hits scoring at least {@code floor} only when it is above
     * 0 ({@link ScoreFloorCollector}): the top {@code k} of those are exact, hits below it may be
     * missing, and the total is a lower bound.
     */
    TopDocs searchPartitions(
        Weight weight, int k, LeafReaderContextPartition[] parts, float floor) throws IOException {
      TopScoreDocCollector collector = newCollector(k);
      if (floor <= 0) {
        search(parts, weight, collector);
        return collector.topDocs();
      }
      search(parts, weight, new ScoreFloorCollector(collector, floor));
      TopDocs top = collector.topDocs();
      return new TopDocs(
          new TotalHits(top.totalHits.value(), TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
          top.scoreDocs);
    }

    private static TopScoreDocCollector newCollector(int k) {
      return new TopScoreDocCollectorManager(Math.max(1, k), null, TOTAL_HITS_THRESHOLD)
          .newCollector();
    }
  }

  /** Searches each partition's leaves as one slice (one task per partition). */
  private static final class PartitionSlicedSearcher extends SnapshotSearcher {
    private final int[] leavesPerPartition;

    PartitionSlicedSearcher(
        IndexReader reader, Executor executor, EpochStatistics epoch, int[] leavesPerPartition) {
      super(reader, executor, epoch);
      this.leavesPerPartition = leavesPerPartition;
    }

    @Override
    protected LeafSlice[] slices(List<LeafReaderContext> leaves) {
      List<LeafSlice> slices = new ArrayList<>(leavesPerPartition.length);
      int start = 0;
      for (int count : leavesPerPartition) {
        if (count > 0) {
          List<LeafReaderContextPartition> parts = new ArrayList<>(count);
          for (LeafReaderContext leaf : leaves.subList(start, start + count)) {
            parts.add(LeafReaderContextPartition.createForEntireSegment(leaf));
          }
          slices.add(new LeafSlice(parts));
        }
        start += count;
      }
      return slices.toArray(new LeafSlice[0]);
    }
  }
}
