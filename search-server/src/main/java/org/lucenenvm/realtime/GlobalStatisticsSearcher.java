package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;

/**
 * Searches one partition but scores with the statistics of all partitions together (doc counts,
 * term frequencies summed over every partition's snapshot), so partitioned scores equal those of
 * one index holding all documents. Costs one extra term lookup per query term and partition.
 */
final class GlobalStatisticsSearcher extends IndexSearcher {
  private final List<IndexReader> partitions;

  GlobalStatisticsSearcher(IndexReader partition, List<IndexReader> partitions, Similarity sim) {
    super(partition);
    this.partitions = partitions;
    setSimilarity(sim);
  }

  @Override
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    long maxDoc = 0;
    long docCount = 0;
    long sumTotalTermFreq = 0;
    long sumDocFreq = 0;
    for (IndexReader r : partitions) {
      maxDoc += r.maxDoc();
      docCount += r.getDocCount(field);
      sumTotalTermFreq += r.getSumTotalTermFreq(field);
      sumDocFreq += r.getSumDocFreq(field);
    }
    if (docCount == 0) {
      return null;
    }
    return new CollectionStatistics(field, maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
  }

  @Override
  public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
      throws IOException {
    long globalDocFreq = 0;
    long globalTotalTermFreq = 0;
    for (IndexReader r : partitions) {
      globalDocFreq += r.docFreq(term);
      globalTotalTermFreq += r.totalTermFreq(term);
    }
    return new TermStatistics(term.bytes(), globalDocFreq, globalTotalTermFreq);
  }
}
