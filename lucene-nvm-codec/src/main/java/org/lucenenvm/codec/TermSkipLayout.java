package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

/**
 * Addresses inside one term's SkipData of {@link NvmPostingsFormat} (impact lines, LastDoc,
 * BlockDocPointer, BlockPosPointer, BlockFreqFP), the one place where writer and reader agree on
 * them.
 * Terms of at most {@value NvmPostingsFormat#BLOCK_SIZE} documents have a single block and no
 * SkipData.
 *
 * @param skipFP start of the term's SkipData in the skip file, 64-byte aligned
 * @param numBlocks number of doc blocks of the term
 * @param hasImpacts whether the field indexes frequencies, so impact lines and BlockFreqFP are
 *     present
 * @param hasPositions whether the field indexes positions, so BlockPosPointer is present
 */
record TermSkipLayout(long skipFP, int numBlocks, boolean hasImpacts, boolean hasPositions) {

  static TermSkipLayout of(long skipFP, int docFreq, boolean hasImpacts, boolean hasPositions) {
    return new TermSkipLayout(skipFP, numBlocks(docFreq), hasImpacts, hasPositions);
  }

  /** Number of blocks of a term with {@code docFreq} documents. */
  static int numBlocks(int docFreq) {
    return (docFreq + BLOCK_SIZE - 1) / BLOCK_SIZE;
  }

  /** Number of block groups, the second impact level. */
  int numGroups() {
    int perGroup = NvmPostingsFormat.BLOCKS_PER_GROUP;
    return (numBlocks + perGroup - 1) / perGroup;
  }

  /** Whether the term has SkipData at all. */
  boolean hasSkipData() {
    return numBlocks > 1;
  }

  long blockImpactFP(int block) {
    return skipFP + (long) block * ImpactLine.BYTES;
  }

  long groupImpactFP(int group) {
    return skipFP + (long) (numBlocks + group) * ImpactLine.BYTES;
  }

  long lastDocsFP() {
    return hasImpacts ? groupImpactFP(numGroups()) : skipFP;
  }

  long blockDocPointersFP() {
    long end = lastDocsFP() + (long) numBlocks * Integer.BYTES;
    return (end + Long.BYTES - 1) & -Long.BYTES;
  }

  long blockPosPointersFP() {
    return blockDocPointersFP() + (long) numBlocks * Long.BYTES;
  }

  long blockFreqFPsFP() {
    return hasPositions
        ? blockPosPointersFP() + (long) numBlocks * Long.BYTES
        : blockPosPointersFP();
  }

  /** End of the SkipData. */
  long endFP() {
    return hasImpacts ? blockFreqFPsFP() + (long) numBlocks * Long.BYTES : blockFreqFPsFP();
  }
}
