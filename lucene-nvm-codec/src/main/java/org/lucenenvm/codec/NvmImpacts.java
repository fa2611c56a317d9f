package org.lucenenvm.codec;

import static org.lucenenvm.codec.NvmPostingsFormat.BLOCKS_PER_GROUP;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * Impacts of one term on two levels, each read as one cache line ({@link ImpactLine}) of the
 * term's SkipData: level 0 is the block of {@value NvmPostingsFormat#BLOCK_SIZE} documents holding
 * the target, level 1 the group of {@value NvmPostingsFormat#BLOCKS_PER_GROUP} blocks holding it.
 * The target's block is found in the LastDoc table that {@link DocBlockReader} holds. Terms of one
 * block (no SkipData), and targets past the last document, have one level that ends at {@link
 * DocIdSetIterator#NO_MORE_DOCS} with the non-informative impact (Integer.MAX_VALUE, 1), as in
 * Lucene104 for terms of fewer than 256 documents.
 */
final class NvmImpacts extends Impacts {
  private final DocBlockReader blocks;
  private final PostingsData skipData;
  private final byte[] line = new byte[ImpactLine.BYTES];
  private final FreqAndNormBuffer blockBuffer = new FreqAndNormBuffer();
  private final FreqAndNormBuffer groupBuffer = new FreqAndNormBuffer();
  private final FreqAndNormBuffer unboundedBuffer = new FreqAndNormBuffer();

  private int block;
  private int blockLastDoc;
  private boolean unbounded;
  private int bufferedBlock;
  private int bufferedGroup;

  NvmImpacts(DocBlockReader blocks, PostingsData skipData) {
    this.blocks = blocks;
    this.skipData = skipData;
    unboundedBuffer.add(Integer.MAX_VALUE, 1L);
  }

  /** Starts over, on the first block, of the term that {@link DocBlockReader} was just reset to. */
  void reset() {
    unbounded = blocks.layout().hasSkipData() == false;
    block = 0;
    blockLastDoc = unbounded ? -1 : blocks.lastDoc(0);
    bufferedBlock = -1;
    bufferedGroup = -1;
  }

  /** Positions these impacts on the block holding the first doc {@code >= target}. */
  void moveTo(int target) {
    if (unbounded || target <= blockLastDoc) {
      return;
    }
    block = blocks.blockAtOrAfter(target, block + 1);
    if (block >= blocks.numBlocks()) {
      unbounded = true;
    } else {
      blockLastDoc = blocks.lastDoc(block);
    }
  }

  /**
   * Positions these impacts on {@code block} unless they are already there or past it: what {@link
   * #moveTo} does for the first doc after the previous block's last doc, without searching.
   */
  void moveToBlock(int block) {
    if (unbounded == false && block > this.block) {
      this.block = block;
      blockLastDoc = blocks.lastDoc(block);
    }
  }

  @Override
  public int numLevels() {
    return unbounded ? 1 : 2;
  }

  @Override
  public int getDocIdUpTo(int level) {
    if (unbounded) {
      return DocIdSetIterator.NO_MORE_DOCS;
    }
    if (level == 0) {
      return blockLastDoc;
    }
    int groupLastBlock = (block / BLOCKS_PER_GROUP + 1) * BLOCKS_PER_GROUP - 1;
    return blocks.lastDoc(Math.min(blocks.numBlocks() - 1, groupLastBlock));
  }

  @Override
  public FreqAndNormBuffer getImpacts(int level) {
    if (unbounded) {
      return unboundedBuffer;
    }
    try {
      if (level == 0) {
        if (bufferedBlock != block) {
          read(blocks.layout().blockImpactFP(block), blockBuffer);
          bufferedBlock = block;
        }
        return blockBuffer;
      }
      int group = block / BLOCKS_PER_GROUP;
      if (bufferedGroup != group) {
        read(blocks.layout().groupImpactFP(group), groupBuffer);
        bufferedGroup = group;
      }
      return groupBuffer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void read(long fp, FreqAndNormBuffer buffer) throws IOException {
    skipData.readBytes(fp, line, ImpactLine.BYTES);
    ImpactLine.decode(line, buffer);
  }
}
