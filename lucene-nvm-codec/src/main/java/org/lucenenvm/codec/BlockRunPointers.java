package org.lucenenvm.codec;

import java.util.Arrays;
import org.apache.lucene.util.ArrayUtil;

/**
 * Per run of a linked segment, the pointers of the last term of the current terms block that is
 * in the run: what the LinkedTermMetadata of the block's next term in that run is delta-encoded
 * against (zeros for a run no earlier term of the block is in). Kept by the writer, and by each
 * {@link LinkedTermState} a reader decodes the terms of a block into. The pointers are one flat
 * array (docFP, skipFP, posFP, payFP per run), so that copying a state, which Lucene does for
 * every term query (TermStates, then the seek by state), is one array copy.
 */
final class BlockRunPointers {

  private static final int POINTERS = 4;

  private long[] pointers = new long[0];

  /** The pointers of the run last passed to {@link #get}. */
  private final NvmTermState scratch = new NvmTermState();

  /** Starts a block of a segment of {@code runCount} runs: every run's pointers are zeros. */
  void reset(int runCount) {
    int length = runCount * POINTERS;
    if (pointers.length < length) {
      pointers = new long[length];
    } else {
      Arrays.fill(pointers, 0, length, 0L);
    }
  }

  /**
   * The pointers of {@code run}, in a state of this object's that the next call replaces; {@link
   * #set} changes them.
   */
  NvmTermState get(int run) {
    int at = run * POINTERS;
    scratch.docFP = pointers[at];
    scratch.skipFP = pointers[at + 1];
    scratch.posFP = pointers[at + 2];
    scratch.payFP = pointers[at + 3];
    return scratch;
  }

  /** Sets the pointers of {@code run} to {@code state}'s. */
  void set(int run, NvmTermState state) {
    int at = run * POINTERS;
    pointers[at] = state.docFP;
    pointers[at + 1] = state.skipFP;
    pointers[at + 2] = state.posFP;
    pointers[at + 3] = state.payFP;
  }

  /** Sets these pointers to {@code other}'s. */
  void copyFrom(BlockRunPointers other) {
    pointers = ArrayUtil.growNoCopy(pointers, other.pointers.length);
    System.arraycopy(other.pointers, 0, pointers, 0, other.pointers.length);
  }
}
