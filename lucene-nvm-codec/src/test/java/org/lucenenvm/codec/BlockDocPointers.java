package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * Where a term's BlockDocPointers are in its segment's skip file, and what they say, for tests
 * that check which DocBlock encoding the writer chose or damage a pointer.
 */
final class BlockDocPointers {
  private BlockDocPointers() {}

  /** File pointer of block {@code block}'s BlockDocPointer, in the segment's skip file. */
  static long address(LeafReader leaf, Term term, int block) throws IOException {
    TermsEnum terms = leaf.terms(term.field()).iterator();
    if (terms.seekExact(term.bytes()) == false) {
      throw new IllegalArgumentException("no term " + term);
    }
    NvmTermState state = (NvmTermState) terms.termState();
    FieldInfo field = leaf.getFieldInfos().fieldInfo(term.field());
    IndexOptions options = field.getIndexOptions();
    TermSkipLayout layout =
        TermSkipLayout.of(
            state.skipFP,
            state.docFreq,
            options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0,
            options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0);
    if (block < 0 || block >= layout.numBlocks() || layout.hasSkipData() == false) {
      throw new IllegalArgumentException(term + " has no SkipData entry for block " + block);
    }
    return layout.blockDocPointersFP() + (long) block * Long.BYTES;
  }

  /** Whether each block of {@code term} is flagged as a Delta8Block, in block order. */
  static boolean[] byteDeltaFlags(Directory dir, String skipFile, LeafReader leaf, Term term)
      throws IOException {
    int numBlocks = TermSkipLayout.numBlocks(leaf.docFreq(term));
    boolean[] flags = new boolean[numBlocks];
    try (IndexInput in = dir.openInput(skipFile, IOContext.DEFAULT)) {
      for (int block = 0; block < numBlocks; block++) {
        in.seek(address(leaf, term, block));
        flags[block] = NvmPostingsFormat.hasByteDeltas(in.readLong());
      }
    }
    return flags;
  }
}
