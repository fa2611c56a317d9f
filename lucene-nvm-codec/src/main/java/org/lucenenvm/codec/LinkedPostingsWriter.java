package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.NormsProducer;
import org.apache.lucene.codecs.PostingsWriterBase;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * The postings writer of a {@link LinkedMerge}: writes no postings, only each term's metadata,
 * the runs holding it ({@link LinkedTermState}), built from the sources' term states that the
 * merged terms enum ({@link MergedTerms.UnionEnum}) hands it.
 *
 * <p>The terms dictionary counts a field's docCount as the cardinality of the {@code docsSeen}
 * bits. Without reading postings the writer does not know which documents have the field, but
 * with disjoint doc ranges and no deletions the count is the sum of the sources' docCounts: on a
 * field's first term it sets, in each source's doc range, as many bits as that source's docCount
 * (the first ones of the range), which gives the exact count, not the exact documents.
 */
final class LinkedPostingsWriter extends PostingsWriterBase {

  private final LinkedMerge merge;
  private final BlockRunPointers previous = new BlockRunPointers();
  private boolean docsCounted;

  LinkedPostingsWriter(LinkedMerge merge) {
    this.merge = merge;
  }

  @Override
  public void init(IndexOutput termsOut, SegmentWriteState state) throws IOException {
    CodecUtil.writeIndexHeader(
        termsOut,
        NvmPostingsFormat.LINKED_TERMS_CODEC,
        NvmPostingsFormat.VERSION_CURRENT,
        state.segmentInfo.getId(),
        state.segmentSuffix);
    termsOut.writeVInt(NvmPostingsFormat.BLOCK_SIZE);
  }

  @Override
  public void setField(FieldInfo fieldInfo) {
    docsCounted = false;
  }

  @Override
  public BlockTermState writeTerm(
      BytesRef term, TermsEnum termsEnum, FixedBitSet docsSeen, NormsProducer norms)
      throws IOException {
    MergedTerms.UnionEnum terms = (MergedTerms.UnionEnum) termsEnum;
    if (docsCounted == false) {
      countDocs(terms.terms(), docsSeen);
      docsCounted = true;
    }
    LinkedTermState linked = new LinkedTermState();
    for (int k = 0; k < terms.sourceCount(); k++) {
      int source = terms.source(k);
      TermState state = terms.termState(k);
      if (state instanceof LinkedTermState sourceLinked) {
        for (int r = 0; r < sourceLinked.count; r++) {
          add(linked, merge.runIndex(source, sourceLinked.runs[r]), sourceLinked.states[r]);
        }
      } else {
        add(linked, merge.runIndex(source, 0), (NvmTermState) state);
      }
    }
    return linked;
  }

  private static void add(LinkedTermState linked, int run, NvmTermState state) {
    NvmTermState copy = linked.addRun(run);
    copy.copyFrom(state);
    copy.reader = null;
    linked.docFreq += state.docFreq;
    linked.totalTermFreq += state.totalTermFreq;
  }

  private void countDocs(MergedTerms terms, FixedBitSet docsSeen) throws IOException {
    for (int source = 0; source < terms.sourceCount(); source++) {
      Terms sourceTerms = terms.source(source);
      if (sourceTerms != null) {
        int base = merge.docBase(source);
        docsSeen.set(base, base + sourceTerms.getDocCount());
      }
    }
  }

  @Override
  public void encodeTerm(
      DataOutput out, FieldInfo fieldInfo, BlockTermState state, boolean absolute)
      throws IOException {
    if (absolute) {
      previous.reset(merge.runCount());
    }
    ((LinkedTermState) state).write(out, fieldInfo, previous, merge.runCount());
  }

  @Override
  public void close() {}
}
