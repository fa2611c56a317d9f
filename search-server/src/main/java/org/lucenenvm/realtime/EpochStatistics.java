package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;

/**
 * The scoring statistics of one snapshot under {@link StatisticsMode#PER_EPOCH}: the sums of its
 * partitions' {@link CommittedStatistics}, clamped to values Lucene accepts (a field or term the
 * Lucene segments do not hold yet counts as held by one document), so every query of the same
 * epoch scores a document identically whatever the live tail holds.
 */
final class EpochStatistics {
  private final List<CommittedStatistics> partitions;

  EpochStatistics(List<CommittedStatistics> partitions) {
    this.partitions = List.copyOf(partitions);
  }

  CollectionStatistics collectionStatistics(String field) throws IOException {
    long maxDoc = 0;
    long docCount = 0;
    long sumTotalTermFreq = 0;
    long sumDocFreq = 0;
    for (CommittedStatistics p : partitions) {
      CommittedStatistics.Field f = p.field(field);
      maxDoc += f.maxDoc();
      docCount += f.docCount();
      sumTotalTermFreq += f.sumTotalTermFreq();
      sumDocFreq += f.sumDocFreq();
    }
    if (docCount == 0) {
      return new CollectionStatistics(field, Math.max(1, maxDoc), 1, 1, 1);
    }
    return new CollectionStatistics(field, maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
  }

  TermStatistics termStatistics(Term term) throws IOException {
    long docFreq = 0;
    long totalTermFreq = 0;
    for (CommittedStatistics p : partitions) {
      CommittedStatistics.TermCounts c = p.term(term);
      docFreq += c.docFreq();
      totalTermFreq += c.totalTermFreq();
    }
    if (docFreq == 0) {
      return new TermStatistics(term.bytes(), 1, 1);
    }
    return new TermStatistics(term.bytes(), docFreq, Math.max(docFreq, totalTermFreq));
  }
}
