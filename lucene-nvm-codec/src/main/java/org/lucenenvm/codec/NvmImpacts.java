package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.BLOCKS_PER_GROUP;
import static org.lucenenvm.codec.NvmPostingsFormat.BLOCK_SIZE;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.RandomAccessInput;

/**
 * Impacts of one term on two levels, read in place from the impact file: level 0 is the block of
 * {@value NvmPostingsFormat#BLOCK_SIZE} documents holding the target, level 1 the group of {@value
 * NvmPostingsFormat#BLOCKS_PER_GROUP} blocks holding it. Past the last document there is one level
 * that ends at {@link DocIdSetIterator#NO_MORE_DOCS}.
 */
final class NvmImpacts extends Impacts {
  private final DocIdArray docs;
  private final RandomAccessInput impactIn;
  private final FreqAndNormBuffer blockBuffer = new FreqAndNormBuffer();
  private final FreqAndNormBuffer groupBuffer = new FreqAndNormBuffer();
  private final FreqAndNormBuffer exhaustedBuffer = new FreqAndNormBuffer();

  private long blockIndexFP;
  private int numBlocks;
  private int block;
  private int blockLastDoc;
  private int bufferedBlock;
  private int bufferedGroup;

  NvmImpacts(DocIdArray docs, RandomAccessInput impactIn) {
    this.docs = docs;
    this.impactIn = impactIn;
    exhaustedBuffer.add(Integer.MAX_VALUE, 1L);
  }

  /** Starts over on a term whose doc IDs are already loaded into the shared {@link DocIdArray}. */
  void reset(long blockIndexFP) {
    this.blockIndexFP = blockIndexFP;
    this.numBlocks = NvmPostingsFormat.numBlocks(docs.count());
    block = -1;
    blockLastDoc = -1;
    bufferedBlock = -1;
    bufferedGroup = -1;
  }

  /** Positions these impacts on the block holding the first doc {@code >= target}. */
  void moveTo(int target) throws IOException {
    if (target <= blockLastDoc) {
      return;
    }
    int lastIndexOfBlock = block < 0 ? -1 : Math.min(docs.count(), (block + 1) * BLOCK_SIZE) - 1;
    int index = docs.firstIndexAfter(lastIndexOfBlock, blockLastDoc, target);
    if (index >= docs.count()) {
      block = numBlocks;
      blockLastDoc = DocIdSetIterator.NO_MORE_DOCS;
    } else {
      block = index / BLOCK_SIZE;
      blockLastDoc = lastDocOfRange(block, BLOCK_SIZE);
    }
  }

  private int lastDocOfRange(int rangeIndex, int docsPerRange) throws IOException {
    long end = Math.min(docs.count(), (long) (rangeIndex + 1) * docsPerRange);
    return docs.get((int) end - 1);
  }

  @Override
  public int numLevels() {
    return block < numBlocks ? 2 : 1;
  }

  @Override
  public int getDocIdUpTo(int level) {
    if (block >= numBlocks) {
      return DocIdSetIterator.NO_MORE_DOCS;
    }
    if (level == 0) {
      return blockLastDoc;
    }
    try {
      return lastDocOfRange(block / BLOCKS_PER_GROUP, BLOCK_SIZE * BLOCKS_PER_GROUP);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public FreqAndNormBuffer getImpacts(int level) {
    if (block >= numBlocks) {
      return exhaustedBuffer;
    }
    try {
      if (level == 0) {
        if (bufferedBlock != block) {
          read(impactIn.readLong(blockIndexFP + (long) block * Long.BYTES), blockBuffer);
          bufferedBlock = block;
        }
        return blockBuffer;
      }
      int group = block / BLOCKS_PER_GROUP;
      if (bufferedGroup != group) {
        long groupFP = impactIn.readLong(blockIndexFP + (long) (numBlocks + group) * Long.BYTES);
        read(groupFP, groupBuffer);
        bufferedGroup = group;
      }
      return groupBuffer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void read(long fp, FreqAndNormBuffer buffer) throws IOException {
    int count = impactIn.readInt(fp);
    buffer.growNoCopy(count);
    long pair = fp + Integer.BYTES;
    for (int i = 0; i < count; i++, pair += Integer.BYTES + Long.BYTES) {
      buffer.freqs[i] = impactIn.readInt(pair);
      buffer.norms[i] = impactIn.readLong(pair + Integer.BYTES);
    }
    buffer.size = count;
  }
}
