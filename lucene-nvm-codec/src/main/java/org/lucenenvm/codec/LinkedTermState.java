package org.lucenenvm.codec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.BlockTermState;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.TermState;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.ArrayUtil;

/**
 * A term of a linked segment of {@link NvmPostingsFormat}: the runs holding its postings, in
 * increasing order of doc base, each with the term's pointers, docFreq and totalTermFreq in that
 * run (the term metadata of the source segment). {@link #write} and {@link #read} are the
 * LinkedTermMetadata of the format's class javadoc.
 */
final class LinkedTermState extends BlockTermState {

  /** Number of runs holding the term. */
  int count;

  /** Run index (in the run table) of each of the {@link #count} runs. */
  int[] runs = new int[1];

  /** The term's metadata in each run; {@link NvmTermState#reader} is unused. */
  NvmTermState[] states = {new NvmTermState()};

  /**
   * The reader that decoded this state (not persisted): lets a linked merge find the runs' files
   * from the state alone. Null in states built by a writer.
   */
  NvmPostingsReader reader;

  /**
   * Per run, the pointers of the block's last term decoded into this state that is in the run
   * (the decoding state of {@link #read}, not the term's).
   */
  private final BlockRunPointers previous = new BlockRunPointers();

  /** Makes room for {@code count} runs and returns the state of the last one, to be filled. */
  NvmTermState addRun(int run) {
    if (count == runs.length) {
      runs = ArrayUtil.grow(runs, count + 1);
      int old = states.length;
      states = ArrayUtil.growExact(states, runs.length);
      for (int i = old; i < states.length; i++) {
        states[i] = new NvmTermState();
      }
    }
    runs[count] = run;
    return states[count++];
  }

  /**
   * Writes the LinkedTermMetadata of this state, for a field of {@code field}'s options in a
   * segment of {@code runCount} runs, its pointers in each run as deltas from {@code previous}'s,
   * which it then updates.
   */
  void write(DataOutput out, FieldInfo field, BlockRunPointers previous, int runCount)
      throws IOException {
    boolean hasFreqs = hasFreqs(field);
    boolean hasPositions = hasPositions(field);
    int runBits = runBits(runCount);
    for (int i = 0; i < count; i++) {
      NvmTermState state = states[i];
      NvmTermState last = previous.get(runs[i]);
      boolean more = i < count - 1;
      out.writeVLong(((state.docFP - last.docFP) << 1 | (more ? 1 : 0)) << runBits | runs[i]);
      if (more) {
        if (hasFreqs == false) {
          out.writeVInt(state.docFreq);
        } else if (state.totalTermFreq == state.docFreq) {
          out.writeVInt(state.docFreq << 1 | 1);
        } else {
          out.writeVInt(state.docFreq << 1);
          out.writeVLong(state.totalTermFreq - state.docFreq);
        }
      }
      state.writePointersAfterDoc(out, last, hasPositions, field.hasPayloads());
      last.copyPointersFrom(state);
    }
  }

  /**
   * Reads the LinkedTermMetadata written by {@link #write} into this state, whose docFreq and
   * totalTermFreq the terms dictionary has set, against the pointers of the block's earlier terms
   * decoded into this state ({@code absolute}: the block's first term); run indexes must be below
   * {@code runCount} and increasing, and every run must hold some of the term's documents.
   */
  void read(DataInput in, FieldInfo field, boolean absolute, int runCount) throws IOException {
    if (absolute) {
      previous.reset(runCount);
    }
    boolean hasFreqs = hasFreqs(field);
    boolean hasPositions = hasPositions(field);
    int runBits = runBits(runCount);
    count = 0;
    int docFreqLeft = docFreq;
    long totalTermFreqLeft = totalTermFreq;
    boolean more;
    do {
      long code = in.readVLong();
      int run = (int) (code & ((1L << runBits) - 1));
      more = (code >>> runBits & 1) != 0;
      if (run >= runCount || (count > 0 && run <= runs[count - 1])) {
        throw new CorruptIndexException(
            "run index "
                + run
                + " of "
                + runCount
                + " after "
                + Arrays.toString(ArrayUtil.copyOfSubArray(runs, 0, count)),
            in);
      }
      NvmTermState state = addRun(run);
      if (more == false) {
        state.docFreq = docFreqLeft;
        state.totalTermFreq = totalTermFreqLeft;
      } else if (hasFreqs == false) {
        state.docFreq = in.readVInt();
        state.totalTermFreq = state.docFreq;
      } else {
        int token = in.readVInt();
        state.docFreq = token >>> 1;
        state.totalTermFreq = (token & 1) != 0 ? state.docFreq : state.docFreq + in.readVLong();
      }
      docFreqLeft -= state.docFreq;
      totalTermFreqLeft -= state.totalTermFreq;
      if (state.docFreq < 1 || state.totalTermFreq < state.docFreq || docFreqLeft < 0) {
        throw new CorruptIndexException(
            "run "
                + run
                + " holds docFreq "
                + state.docFreq
                + " and totalTermFreq "
                + state.totalTermFreq
                + " of the term's "
                + docFreq
                + " and "
                + totalTermFreq,
            in);
      }
      NvmTermState last = previous.get(run);
      state.docFP = last.docFP + (code >>> (runBits + 1));
      state.readPointersAfterDoc(in, last, hasPositions, field.hasPayloads());
      last.copyPointersFrom(state);
    } while (more);
  }

  /** Bits of a run index in a segment of {@code runCount} runs: those of {@code runCount - 1}. */
  static int runBits(int runCount) {
    return Integer.SIZE - Integer.numberOfLeadingZeros(runCount - 1);
  }

  private static boolean hasFreqs(FieldInfo field) {
    return field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
  }

  private static boolean hasPositions(FieldInfo field) {
    return field.getIndexOptions().compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
  }

  @Override
  public LinkedTermState clone() {
    LinkedTermState other = new LinkedTermState();
    other.copyFrom(this);
    return other;
  }

  @Override
  public void copyFrom(TermState other) {
    super.copyFrom(other);
    LinkedTermState state = (LinkedTermState) other;
    reader = state.reader;
    previous.copyFrom(state.previous);
    count = 0;
    for (int i = 0; i < state.count; i++) {
      addRun(state.runs[i]).copyFrom(state.states[i]);
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(super.toString()).append(" runs=[");
    for (int i = 0; i < count; i++) {
      sb.append(i == 0 ? "" : ", ").append(runs[i]).append(": ").append(states[i]);
    }
    return sb.append(']').toString();
  }
}
