package org.lucenenvm.realtime;

import org.apache.lucene.util.RamUsageEstimator;

/**
 * Per-document statistics of one field of a {@link LiveSegment}, so any snapshot {@code [0,
 * maxDoc)} gets exact {@code docCount}, {@code sumDocFreq} and {@code sumTotalTermFreq}: each doc's
 * unique-term count and length, plus prefix sums at every {@value #BLOCK}th doc (a query sums at
 * most {@value #BLOCK} - 1 docs). Slots are written by the single writer before the segment
 * publishes the doc; a block's prefix is written with the block's last doc, so a snapshot only
 * reads prefixes of published docs.
 */
final class LiveFieldStats {
  private static final int BLOCK = 64;

  private final int[] uniqueTerms;
  private final int[] lengths;
  private final int[] docCountPrefix;
  private final long[] sumDocFreqPrefix;
  private final long[] sumTotalTermFreqPrefix;

  LiveFieldStats(int capacity) {
    uniqueTerms = new int[capacity];
    lengths = new int[capacity];
    int blocks = capacity / BLOCK + 1;
    docCountPrefix = new int[blocks];
    sumDocFreqPrefix = new long[blocks];
    sumTotalTermFreqPrefix = new long[blocks];
  }

  /** Records {@code doc} (every doc, zeros when it lacks the field); a rolled-back doc is rewritten. */
  void record(int doc, int docUniqueTerms, int docLength) {
    uniqueTerms[doc] = docUniqueTerms;
    lengths[doc] = docLength;
    if ((doc + 1) % BLOCK == 0) {
      int block = (doc + 1) / BLOCK;
      docCountPrefix[block] = docCount(doc + 1 - BLOCK) + count(doc + 1 - BLOCK, doc + 1);
      sumDocFreqPrefix[block] = sumDocFreq(doc + 1 - BLOCK) + sum(uniqueTerms, doc + 1 - BLOCK, doc + 1);
      sumTotalTermFreqPrefix[block] = sumTotalTermFreq(doc + 1 - BLOCK) + sum(lengths, doc + 1 - BLOCK, doc + 1);
    }
  }

  int docCount(int maxDoc) {
    int block = maxDoc / BLOCK;
    return docCountPrefix[block] + count(block * BLOCK, maxDoc);
  }

  long sumDocFreq(int maxDoc) {
    int block = maxDoc / BLOCK;
    return sumDocFreqPrefix[block] + sum(uniqueTerms, block * BLOCK, maxDoc);
  }

  long sumTotalTermFreq(int maxDoc) {
    int block = maxDoc / BLOCK;
    return sumTotalTermFreqPrefix[block] + sum(lengths, block * BLOCK, maxDoc);
  }

  private int count(int from, int to) {
    int n = 0;
    for (int doc = from; doc < to; doc++) {
      if (uniqueTerms[doc] > 0) {
        n++;
      }
    }
    return n;
  }

  private static long sum(int[] values, int from, int to) {
    long sum = 0;
    for (int doc = from; doc < to; doc++) {
      sum += values[doc];
    }
    return sum;
  }

  long ramBytesUsed() {
    return RamUsageEstimator.sizeOf(uniqueTerms)
        + RamUsageEstimator.sizeOf(lengths)
        + RamUsageEstimator.sizeOf(docCountPrefix)
        + RamUsageEstimator.sizeOf(sumDocFreqPrefix)
        + RamUsageEstimator.sizeOf(sumTotalTermFreqPrefix);
  }
}
