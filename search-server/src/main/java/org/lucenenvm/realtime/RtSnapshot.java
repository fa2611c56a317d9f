package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.lucenenvm.cache.QueryKey;
import org.lucenenvm.cache.QueryKeys;

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
 * document; with a query executor each partition is searched as one slice of its own. Which
 * statistics: see {@link #statistics()}.
 */
public final class RtSnapshot implements Closeable {
  private final SnapshotReader reader;
  private final SnapshotSearcher searcher;

  private final Similarity similarity;
  private final Executor executor;
  private final EpochStatistics epoch;
  private final CachedSearch cachedSearch;

  private RtSnapshot(
      SnapshotReader reader,
      Similarity similarity,
      Executor executor,
      StatisticsMode statistics,
      CachedSearch cachedSearch) {
    this.reader = reader;
    this.similarity = similarity;
    this.executor = executor;
    this.cachedSearch = cachedSearch;
    this.epoch = statistics == StatisticsMode.PER_EPOCH ? reader.boundedEpochStatistics() : null;
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

  /**
   * Binds a snapshot of {@code partitions}, searched through {@code cachedSearch} (null: the engine
   * has no result cache); releases whatever it bound if that fails.
   */
  static RtSnapshot of(
      Partition[] partitions,
      Similarity similarity,
      Executor executor,
      StatisticsMode statistics,
      CachedSearch cachedSearch)
      throws IOException {
    List<TableView.Bound> bounds = new ArrayList<>(partitions.length);
    boolean success = false;
    try {
      List<LeafReader> leaves = new ArrayList<>();
      int[] leavesPerPartition = new int[partitions.length];
      for (int p = 0; p < partitions.length; p++) {
        TableView.Bound bound = partitions[p].bind();
        bounds.add(bound);
        leaves.addAll(bound.leaves());
        leavesPerPartition[p] = bound.leaves().size();
      }
      SnapshotReader reader = new SnapshotReader(leaves, bounds, leavesPerPartition);
      success = true;
      return new RtSnapshot(reader, similarity, executor, statistics, cachedSearch);
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
   * The statistics this snapshot's searches score with (BM25's document count, average field
   * length and document frequencies). {@link StatisticsMode#PER_QUERY}: exact, those of every
   * document the snapshot holds. {@link StatisticsMode#PER_EPOCH}: those of its statistics epoch's
   * segments only, so that a result cached over them keeps its scores while documents are added;
   * only with an engine configured so, and only when the epoch has at least one segment and holds
   * at least as many documents (deleted ones included, as Lucene counts them) as the tail it leaves
   * out (live segments and Lucene segments outside the epoch). Otherwise exact: an empty epoch, or
   * one outweighed by the tail, would rank fresh documents by statistics that barely know them.
   */
  public StatisticsMode statistics() {
    return epoch == null ? StatisticsMode.PER_QUERY : StatisticsMode.PER_EPOCH;
  }

  /**
   * The top hits of {@code request}'s query in this snapshot: the one search path of the engine
   * ({@link RtEngine#search} runs it on a fresh snapshot). As with {@link
   * IndexSearcher#search(Query, int)}, the total hit count is exact up to 1,000 hits and may be a
   * lower bound beyond. With a timeout the search stops collecting once it says so and the result
   * reports {@link RtSearchResult#timedOut()}, with the hits found until then; term expansion (a
   * query's rewrite) is bounded by it too ({@link TimeLimitedReader}), and if it runs out there,
   * before any hit is collected, the result is empty and timed out. Through the engine's result
   * cache when it has one, the request allows it, the query has a key ({@link QueryKeys}) and this
   * snapshot scores with epoch statistics; with a cache, a keyed query always runs in its canonical
   * form, so its answer is the same with the cache or without.
   */
  public RtSearchResult search(RtSearchRequest request) throws IOException {
    Query query = request.query();
    if (cachedSearch != null) {
      Optional<QueryKey> key = QueryKeys.of(query);
      if (key.isPresent()) {
        if (request.useCache() && epoch != null) {
          return cachedSearch.search(this, key.get(), request);
        }
        query = QueryKeys.toQuery(key.get());
      }
    }
    IndexSearcher s = searcherFor(request.timeout());
    TopDocs top;
    try {
      top = s.search(query, request.k());
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      return timedOutBeforeCollection();
    }
    return result(top, s, request.withStoredFields(), CacheOutcome.BYPASSED);
  }

  /** {@code top}, found by {@code s}, as a search result, with or without stored fields. */
  RtSearchResult result(
      TopDocs top, IndexSearcher s, boolean withStoredFields, CacheOutcome outcome)
      throws IOException {
    List<RtHit> hits = new ArrayList<>(top.scoreDocs.length);
    StoredFields stored = withStoredFields ? s.storedFields() : null;
    for (ScoreDoc sd : top.scoreDocs) {
      hits.add(stored == null ? new RtHit(null, sd.score, Map.of()) : hit(stored, sd));
    }
    return new RtSearchResult(top.totalHits, hits, s.timedOut(), outcome, statistics());
  }

  /** The result of a query whose time ran out while it expanded terms, before collection. */
  RtSearchResult timedOutBeforeCollection() {
    return new RtSearchResult(
        new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
        List.of(),
        true,
        CacheOutcome.BYPASSED,
        statistics());
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

  /**
   * The epoch segments and the tail leaves of a snapshot, and how many documents each side holds
   * (maxDoc: deleted documents included, as Lucene's statistics count them).
   */
  private record Layout(
      List<SnapshotSegment> segments,
      int[] tailLeaves,
      List<TailLeaf> tail,
      long epochDocs,
      long tailDocs) {
    static Layout of(
        List<TableView.Bound> bounds,
        int[] leavesPerPartition,
        List<? extends IndexReader> leaves) {
      List<SnapshotSegment> lucene = new ArrayList<>();
      List<TailLeaf> tail = new ArrayList<>();
      long epochDocs = 0;
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
      for (SnapshotSegment segment : lucene) {
        epochDocs += leaves.get(segment.leaf()).maxDoc();
      }
      long tailDocs = 0;
      int[] tailLeaves = new int[tail.size()];
      for (int i = 0; i < tailLeaves.length; i++) {
        tailLeaves[i] = tail.get(i).leaf();
        tailDocs += leaves.get(tailLeaves[i]).maxDoc();
      }
      return new Layout(List.copyOf(lucene), tailLeaves, List.copyOf(tail), epochDocs, tailDocs);
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

    /** Which leaves are epoch segments and which the tail, worked out on first use. */
    Layout layout() {
      Layout known = layout;
      if (known == null) {
        known = Layout.of(bounds, leavesPerPartition, getSequentialSubReaders());
        layout = known; // a racing thread computes the same layout
      }
      return known;
    }

    /**
     * The epoch's statistics if they may score this snapshot (see {@link
     * RtSnapshot#statistics()}): the epoch has a segment and at least as many documents as the
     * tail; else null.
     */
    EpochStatistics boundedEpochStatistics() {
      Layout known = layout();
      if (known.segments().isEmpty() || known.epochDocs() < known.tailDocs()) {
        return null;
      }
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

    /**
     * A weight of the canonical query of {@code key} ({@link QueryKeys#toQuery(QueryKey)}) for
     * searching the leaves {@code leafOrds} only (a cache hit's tail): with epoch statistics its
     * terms are looked up in those leaves alone ({@link #termStatesIn}), not in every leaf, and it
     * scores exactly as the all-leaves weight does there, because the epoch's statistics do not
     * depend on the leaves searched (the leaves' own counts only tell whether a term occurs in them
     * at all). With exact statistics the counts of all leaves score, so this is the all-leaves
     * weight.
     */
    Weight weightFor(QueryKey key, int[] leafOrds) throws IOException {
      if (epoch == null) {
        return weightFor(QueryKeys.toQuery(key));
      }
      return weightFor(
          QueryKeys.toQuery(key, term -> new TermQuery(term, termStatesIn(term, leafOrds))));
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
