package org.lucenenvm.realtime;

import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Iterates one {@link LivePostingList}: docs ascending with freqs and positions, skipping whole
 * blocks through their summaries on {@link #advance}, and exposing each block's competitive impact
 * (one level: the block holding the target) so block-max WAND and MaxScore skip here as in a
 * flushed segment.
 */
final class LivePostingsEnum extends ImpactsEnum {
  private static final int BLOCK = LiveTermPostings.BLOCK;

  private final LivePostingList postings;
  private final LivePostingCursor cursor;
  private final boolean positions;
  /** Postings decoded so far; the current doc is posting {@code consumed - 1}. */
  private int consumed;
  private int doc = -1;
  private int shallowTarget = -1;
  private int impactBlock;
  private final FreqAndNormBuffer impactBuffer = new FreqAndNormBuffer();

  LivePostingsEnum(LivePostingList postings, boolean positions) {
    this.postings = postings;
    this.cursor = new LivePostingCursor(postings.slabs(), postings.hasPositions());
    this.positions = positions && postings.hasPositions();
    cursor.resetToBlock(postings.summaries(), -1, postings.start());
    impactBuffer.growNoCopy(1);
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() {
    if (consumed == postings.size()) {
      return doc = NO_MORE_DOCS;
    }
    consumed++;
    return doc = cursor.next();
  }

  @Override
  public int advance(int target) {
    int blocks = postings.blocks();
    int block = consumed / BLOCK;
    if (block < blocks && postings.blockLastDoc(block) < target) {
      do {
        block++;
      } while (block < blocks && postings.blockLastDoc(block) < target);
      cursor.resetToBlock(postings.summaries(), block - 1, postings.start());
      consumed = block * BLOCK;
    }
    int d;
    do {
      d = nextDoc();
    } while (d < target);
    return d;
  }

  @Override
  public int freq() {
    return cursor.freq();
  }

  @Override
  public int nextPosition() {
    return positions ? cursor.nextPosition() : -1;
  }

  @Override
  public int startOffset() {
    return -1;
  }

  @Override
  public int endOffset() {
    return -1;
  }

  @Override
  public BytesRef getPayload() {
    return null;
  }

  @Override
  public long cost() {
    return postings.size();
  }

  @Override
  public void advanceShallow(int target) {
    shallowTarget = Math.max(shallowTarget, target);
  }

  @Override
  public Impacts getImpacts() {
    int target = Math.max(doc, shallowTarget);
    int blocks = postings.blocks();
    while (impactBlock < blocks && postings.blockLastDoc(impactBlock) < target) {
      impactBlock++;
    }
    return impacts;
  }

  private final Impacts impacts =
      new Impacts() {
        @Override
        public int numLevels() {
          return 1;
        }

        @Override
        public int getDocIdUpTo(int level) {
          return impactBlock < postings.blocks()
              ? postings.blockLastDoc(impactBlock)
              : NO_MORE_DOCS;
        }

        @Override
        public FreqAndNormBuffer getImpacts(int level) {
          boolean whole = impactBlock < postings.blocks();
          impactBuffer.freqs[0] = whole ? postings.blockMaxFreq(impactBlock) : postings.tailMaxFreq();
          impactBuffer.norms[0] =
              whole ? postings.blockMinNorm(impactBlock) : postings.tailMinNorm();
          impactBuffer.size = 1;
          return impactBuffer;
        }
      };
}
