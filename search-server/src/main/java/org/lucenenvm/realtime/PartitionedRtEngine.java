package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.ThreadInterruptedException;

/**
 * N independent {@link RtEngine}s (SPIRIT's executors), each owning the documents whose id hashes
 * to it ({@code floorMod(id.hashCode(), N)}) and its own pipeline, in namespaces {@code p<i>.} of
 * one NVM directory. A query runs on every partition (in parallel when given an executor) and the
 * per-partition top-k lists are merged with {@link TopDocs#merge}. Scores use the statistics of
 * all partitions together ({@link GlobalStatisticsSearcher}), so they equal those of a single
 * index over all documents.
 *
 * <p>The partition count is recorded in {@value #PARTITIONS_FILE}; reopening with another count is
 * refused, as documents would be routed to the wrong partition. That file is: Header ({@link
 * CodecUtil#writeHeader CodecHeader}, codec {@value #CODEC}, version 0), PartitionCount ({@link
 * org.apache.lucene.store.DataOutput#writeVInt VInt}), Footer ({@link CodecUtil#writeFooter
 * CodecFooter}).
 */
public final class PartitionedRtEngine implements Closeable {
  static final String PARTITIONS_FILE = "rt.partitions";
  private static final String CODEC = "LuceneNvmRtPartitions";

  private final RtEngine[] partitions;
  private final ExecutorService queryExecutor;
  private final Similarity similarity;

  private PartitionedRtEngine(
      RtEngine[] partitions, ExecutorService queryExecutor, Similarity similarity) {
    this.partitions = partitions;
    this.queryExecutor = queryExecutor;
    this.similarity = similarity;
  }

  /**
   * Opens {@code count} partitions over {@code nvm}; {@code queryExecutor} (may be null: queries
   * then visit the partitions one after the other in the caller's thread) runs the fan-out.
   */
  public static PartitionedRtEngine open(
      Directory nvm, RtEngineConfig config, int count, ExecutorService queryExecutor)
      throws IOException {
    if (count < 1) {
      throw new IllegalArgumentException("partition count must be >= 1, got " + count);
    }
    checkPartitionCount(nvm, count);
    RtEngine[] engines = new RtEngine[count];
    try {
      for (int i = 0; i < count; i++) {
        engines[i] = RtEngine.open(partitionDirectory(nvm, i), config, "rt-p" + i);
      }
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(engines);
      throw e;
    }
    return new PartitionedRtEngine(engines, queryExecutor, config.similarity());
  }

  /** The partition count recorded in {@code nvm}, or 0 when none is. */
  private static int recordedPartitionCount(Directory nvm) throws IOException {
    if (!Arrays.asList(nvm.listAll()).contains(PARTITIONS_FILE)) {
      return 0;
    }
    try (ChecksumIndexInput in = nvm.openChecksumInput(PARTITIONS_FILE)) {
      CodecUtil.checkHeader(in, CODEC, 0, 0);
      int stored = in.readVInt();
      CodecUtil.checkFooter(in);
      return stored;
    }
  }

  private static void checkPartitionCount(Directory nvm, int count) throws IOException {
    int stored = recordedPartitionCount(nvm);
    if (stored != 0) {
      if (stored != count) {
        throw new IllegalArgumentException(
            nvm + " was created with " + stored + " partitions, cannot open it with " + count);
      }
      return;
    }
    try (IndexOutput out = nvm.createOutput(PARTITIONS_FILE, IOContext.DEFAULT)) {
      CodecUtil.writeHeader(out, CODEC, 0);
      out.writeVInt(count);
      CodecUtil.writeFooter(out);
    }
    nvm.sync(List.of(PARTITIONS_FILE));
    nvm.syncMetaData();
  }

  private static Directory partitionDirectory(Directory nvm, int partition) {
    return NamespacedDirectory.partition(nvm, "p" + partition + ".");
  }

  /**
   * {@link RtEngine#acceptIncomplete} for every partition recorded in {@code nvm}.
   *
   * @return the acknowledged documents given up over all partitions
   */
  public static long acceptIncomplete(Directory nvm) throws IOException {
    long givenUp = 0;
    int count = recordedPartitionCount(nvm);
    for (int i = 0; i < count; i++) {
      givenUp += RtEngine.acceptIncomplete(partitionDirectory(nvm, i));
    }
    return givenUp;
  }

  /** {@link RtEngine#setNvmBudgetBytes} of every partition (each gets {@code bytes}). */
  public void setNvmBudgetBytes(long bytes) {
    for (RtEngine e : partitions) {
      e.setNvmBudgetBytes(bytes);
    }
  }

  /** Number of partitions. */
  public int partitionCount() {
    return partitions.length;
  }

  /** The partition that owns {@code id}. */
  public int partitionOf(String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("document has no '" + RtSchema.ID_FIELD + "'");
    }
    return Math.floorMod(id.hashCode(), partitions.length);
  }

  /** The engine of partition {@code i} (for per-partition snapshots and stats). */
  public RtEngine partition(int i) {
    return partitions[i];
  }

  /** See {@link RtEngine#add}. */
  public void add(RtDocument doc) {
    partitions[partitionOf(doc == null ? null : doc.id())].add(doc);
  }

  /** See {@link RtEngine#update}. */
  public void update(RtDocument doc) {
    partitions[partitionOf(doc == null ? null : doc.id())].update(doc);
  }

  /** See {@link RtEngine#delete}. */
  public boolean delete(String id) {
    return partitions[partitionOf(id)].delete(id);
  }

  /** See {@link RtEngine#get}. */
  public RtDocument get(String id) throws IOException {
    return partitions[partitionOf(id)].get(id);
  }

  /** The exact number of live documents matching {@code query} over all partitions. */
  public long count(Query query) throws IOException {
    long total = 0;
    for (RtEngine e : partitions) {
      total += e.count(query);
    }
    return total;
  }

  /**
   * Runs {@code query} on every partition and merges the top {@code k}; the total hit count may be
   * a lower bound as in {@link RtEngine#search}.
   */
  public RtSearchResult search(Query query, int k) throws IOException {
    return search(query, k, null);
  }

  /**
   * As {@link #search(Query, int)}, but collection stops once {@code timeout} says so ({@link
   * IndexSearcher#setTimeout}): the result then holds the hits collected until then and {@link
   * RtSearchResult#timedOut()} is true. Term expansion (rewrite) is bounded too ({@link
   * TimeLimitedReader}); a partition whose time ran out during it contributes no hits.
   *
   * @param timeout when to stop collecting; null: no limit
   */
  public RtSearchResult search(Query query, int k, QueryTimeout timeout) throws IOException {
    List<RtSnapshot> snapshots = new ArrayList<>(partitions.length);
    try {
      for (RtEngine e : partitions) {
        snapshots.add(e.acquireSnapshot());
      }
      TopDocs[] perPartition = new TopDocs[partitions.length];
      List<IndexReader> readers = new ArrayList<>(partitions.length);
      for (RtSnapshot s : snapshots) {
        readers.add(s.reader());
      }
      List<Callable<TopDocs>> tasks = new ArrayList<>(partitions.length);
      List<IndexSearcher> searchers = new ArrayList<>(partitions.length);
      AtomicBoolean stoppedInRewrite = new AtomicBoolean();
      for (IndexReader reader : readers) {
        IndexReader searched = timeout == null ? reader : TimeLimitedReader.wrap(reader, timeout);
        IndexSearcher searcher = new GlobalStatisticsSearcher(searched, readers, similarity);
        searcher.setTimeout(timeout);
        searchers.add(searcher);
        tasks.add(() -> searchWithin(searcher, query, k, stoppedInRewrite));
      }
      if (queryExecutor == null) {
        for (int i = 0; i < tasks.size(); i++) {
          perPartition[i] = call(tasks.get(i));
        }
      } else {
        List<Future<TopDocs>> futures = new ArrayList<>(tasks.size());
        for (Callable<TopDocs> t : tasks) {
          futures.add(queryExecutor.submit(t));
        }
        for (int i = 0; i < futures.size(); i++) {
          perPartition[i] = await(futures.get(i));
        }
      }
      for (int i = 0; i < perPartition.length; i++) {
        for (ScoreDoc sd : perPartition[i].scoreDocs) {
          sd.shardIndex = i;
        }
      }
      TopDocs merged = TopDocs.merge(k, perPartition);
      StoredFields[] stored = new StoredFields[partitions.length];
      List<RtHit> hits = new ArrayList<>(merged.scoreDocs.length);
      for (ScoreDoc sd : merged.scoreDocs) {
        if (stored[sd.shardIndex] == null) {
          stored[sd.shardIndex] = snapshots.get(sd.shardIndex).searcher().storedFields();
        }
        hits.add(RtEngine.hit(stored[sd.shardIndex], sd));
      }
      boolean timedOut =
          stoppedInRewrite.get() || searchers.stream().anyMatch(IndexSearcher::timedOut);
      return new RtSearchResult(merged.totalHits, hits, timedOut);
    } finally {
      IOUtils.close(snapshots);
    }
  }

  /** The partition's top hits, or none if the time ran out before collection began. */
  private static TopDocs searchWithin(
      IndexSearcher searcher, Query query, int k, AtomicBoolean stoppedInRewrite)
      throws IOException {
    try {
      return searcher.search(query, k);
    } catch (ExitableDirectoryReader.ExitingReaderException e) {
      stoppedInRewrite.set(true);
      return new TopDocs(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO), new ScoreDoc[0]);
    }
  }

  private static TopDocs call(Callable<TopDocs> task) throws IOException {
    try {
      return task.call();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  private static TopDocs await(Future<TopDocs> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      throw new ThreadInterruptedException(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(e.getCause());
    }
  }

  /** Stats of every partition. */
  public List<RtEngineStats> stats() throws IOException {
    List<RtEngineStats> stats = new ArrayList<>(partitions.length);
    for (RtEngine e : partitions) {
      stats.add(e.stats());
    }
    return stats;
  }

  /**
   * Closes every partition (see {@link RtEngine#close}), rethrowing the first failure after trying
   * all; calling it again retries the partitions whose close failed. The query executor is the
   * caller's.
   */
  @Override
  public void close() throws IOException {
    IOUtils.close(partitions);
  }
}
