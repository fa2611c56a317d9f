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

  /** Writes the LinkedTermMetadata of this state for a field of {@code field}'s options. */
  void write(DataOutput out, FieldInfo field) throws IOException {
    IndexOptions options = field.getIndexOptions();
    boolean hasFreqs = options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    boolean hasPositions = options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    out.writeVInt(count);
    for (int i = 0; i < count; i++) {
      NvmTermState state = states[i];
      out.writeVInt(runs[i]);
      if (count > 1) {
        out.writeVInt(state.docFreq);
        if (hasFreqs) {
          out.writeVLong(state.totalTermFreq - state.docFreq);
        }
      }
      out.writeVLong(state.docFP);
      if (state.docFreq > NvmPostingsFormat.BLOCK_SIZE) {
        out.writeVLong(state.skipFP);
      }
      if (hasPositions) {
        out.writeVLong(state.posFP);
        if (field.hasPayloads()) {
          out.writeVLong(state.payFP);
        }
      }
    }
  }

  /**
   * Reads the LinkedTermMetadata written by {@link #write} into this state, whose docFreq and
   * totalTermFreq the terms dictionary has set; every run index must be below {@code runCount}
   * and increasing.
   */
  void read(DataInput in, FieldInfo field, int runCount) throws IOException {
    IndexOptions options = field.getIndexOptions();
    boolean hasFreqs = options.compareTo(IndexOptions.DOCS_AND_FREQS) >= 0;
    boolean hasPositions = options.compareTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS) >= 0;
    int n = in.readVInt();
    if (n < 1 || n > runCount) {
      throw new CorruptIndexException("term in " + n + " runs of " + runCount, in);
    }
    count = 0;
    int docFreqSum = 0;
    long totalTermFreqSum = 0;
    for (int i = 0; i < n; i++) {
      int run = in.readVInt();
      if (run >= runCount || (i > 0 && run <= runs[i - 1])) {
        throw new CorruptIndexException(
            "run index " + run + " of " + runCount + " after " + Arrays.toString(runs), in);
      }
      NvmTermState state = addRun(run);
      if (n > 1) {
        state.docFreq = in.readVInt();
        state.totalTermFreq = hasFreqs ? state.docFreq + in.readVLong() : state.docFreq;
      } else {
        state.docFreq = docFreq;
        state.totalTermFreq = totalTermFreq;
      }
      docFreqSum += state.docFreq;
      totalTermFreqSum += state.totalTermFreq;
      state.docFP = in.readVLong();
      state.skipFP = state.docFreq > NvmPostingsFormat.BLOCK_SIZE ? in.readVLong() : 0;
      state.posFP = hasPositions ? in.readVLong() : 0;
      state.payFP = hasPositions && field.hasPayloads() ? in.readVLong() : 0;
    }
    if (docFreqSum != docFreq || totalTermFreqSum != totalTermFreq) {
      throw new CorruptIndexException(
          "runs hold docFreq "
              + docFreqSum
              + " and totalTermFreq "
              + totalTermFreqSum
              + ", the term "
              + docFreq
              + " and "
              + totalTermFreq,
          in);
    }
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
