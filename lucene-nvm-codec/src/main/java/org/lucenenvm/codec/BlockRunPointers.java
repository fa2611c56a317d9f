package org.lucenenvm.codec;

import org.apache.lucene.util.ArrayUtil;

/**
 * Per run of a linked segment, the pointers of the last term of the current terms block that is
 * in the run: what the LinkedTermMetadata of the block's next term in that run is delta-encoded
 * against (zeros for a run no earlier term of the block is in). Kept by the writer, and by each
 * {@link LinkedTermState} a reader decodes the terms of a block into.
 */
final class BlockRunPointers {

  private NvmTermState[] last = new NvmTermState[0];

  /** Starts a block of a segment of {@code runCount} runs: every run's pointers are zeros. */
  void reset(int runCount) {
    ensureCapacity(runCount);
    for (int run = 0; run < runCount; run++) {
      last[run].copyPointersFrom(NvmTermState.ZEROS);
    }
  }

  /** The pointers of {@code run}: those of its last term in the block, updated in place. */
  NvmTermState get(int run) {
    return last[run];
  }

  /** Sets these pointers to {@code other}'s. */
  void copyFrom(BlockRunPointers other) {
    ensureCapacity(other.last.length);
    for (int run = 0; run < other.last.length; run++) {
      last[run].copyPointersFrom(other.last[run]);
    }
  }

  private void ensureCapacity(int runCount) {
    if (last.length < runCount) {
      int old = last.length;
      last = ArrayUtil.growExact(last, runCount);
      for (int run = old; run < runCount; run++) {
        last[run] = new NvmTermState();
      }
    }
  }
}
