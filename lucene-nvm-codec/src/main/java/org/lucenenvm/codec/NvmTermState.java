package org.lucenenvm.codec;

import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.index.TermState;

/** Where a term's postings start in each file of {@link NvmPostingsFormat}. */
final class NvmTermState extends BlockTermState {
  /** Start of the term's first doc block in the doc file. */
  long docFP;

  /** Start of the term's SkipData in the skip file (terms of more than one block). */
  long skipFP;

  /** Start of the term's position records in the position file. */
  long posFP;

  /** Start of the term's payload bytes in the payload file. */
  long payFP;

  /**
   * The reader that decoded this state (not persisted): lets a linked merge find the files of the
   * segment the state belongs to from the state alone ({@code TermsEnum.termState()} is all a
   * merge sees of a source). Null in states built by a writer.
   */
  NvmPostingsReader reader;

  @Override
  public NvmTermState clone() {
    NvmTermState other = new NvmTermState();
    other.copyFrom(this);
    return other;
  }

  @Override
  public void copyFrom(TermState other) {
    super.copyFrom(other);
    NvmTermState state = (NvmTermState) other;
    docFP = state.docFP;
    skipFP = state.skipFP;
    posFP = state.posFP;
    payFP = state.payFP;
    reader = state.reader;
  }

  @Override
  public String toString() {
    return super.toString()
        + " docFP="
        + docFP
        + " skipFP="
        + skipFP
        + " posFP="
        + posFP
        + " payFP="
        + payFP;
  }
}
