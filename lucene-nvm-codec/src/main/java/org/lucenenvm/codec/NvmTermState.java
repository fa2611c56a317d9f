package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.index.TermState;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;

/** Where a term's postings start in each file of {@link NvmPostingsFormat}. */
final class NvmTermState extends BlockTermState {

  /** All pointers zero: what the first term of a terms block is written against. Never changed. */
  static final NvmTermState ZEROS = new NvmTermState();

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

  /**
   * Writes this term's pointers as the *FPDeltas of the format's TermMetadata, the differences from
   * {@code previous}'s (the previous term's of the block, or zeros).
   */
  void writePointers(
      DataOutput out, NvmTermState previous, boolean hasPositions, boolean hasPayloads)
      throws IOException {
    out.writeVLong(docFP - previous.docFP);
    writePointersAfterDoc(out, previous, hasPositions, hasPayloads);
  }

  /**
   * Writes the *FPDeltas after DocFPDelta: SkipFPDelta only when the term has more than BlockSize
   * documents (otherwise this state takes {@code previous}'s skipFP, so that the next delta is
   * against the last one written, as the reader sees it), then PosFPDelta and PayFPDelta.
   */
  void writePointersAfterDoc(
      DataOutput out, NvmTermState previous, boolean hasPositions, boolean hasPayloads)
      throws IOException {
    if (docFreq > NvmPostingsFormat.BLOCK_SIZE) {
      out.writeVLong(skipFP - previous.skipFP);
    } else {
      skipFP = previous.skipFP;
    }
    if (hasPositions) {
      out.writeVLong(posFP - previous.posFP);
      if (hasPayloads) {
        out.writeVLong(payFP - previous.payFP);
      }
    }
  }

  /**
   * Reads the pointers written by {@link #writePointers} into this state, whose docFreq is set:
   * {@code previous}'s plus the deltas ({@code previous} may be this state).
   */
  void readPointers(DataInput in, NvmTermState previous, boolean hasPositions, boolean hasPayloads)
      throws IOException {
    docFP = previous.docFP + in.readVLong();
    readPointersAfterDoc(in, previous, hasPositions, hasPayloads);
  }

  /** Reads the pointers written by {@link #writePointersAfterDoc}, as {@link #readPointers}. */
  void readPointersAfterDoc(
      DataInput in, NvmTermState previous, boolean hasPositions, boolean hasPayloads)
      throws IOException {
    skipFP =
        docFreq > NvmPostingsFormat.BLOCK_SIZE ? previous.skipFP + in.readVLong() : previous.skipFP;
    posFP = hasPositions ? previous.posFP + in.readVLong() : 0;
    payFP = hasPositions && hasPayloads ? previous.payFP + in.readVLong() : 0;
  }

  /** Sets this state's pointers to {@code other}'s. */
  void copyPointersFrom(NvmTermState other) {
    docFP = other.docFP;
    skipFP = other.skipFP;
    posFP = other.posFP;
    payFP = other.payFP;
  }

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
    copyPointersFrom(state);
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
