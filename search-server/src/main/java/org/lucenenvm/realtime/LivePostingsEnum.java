package org.lucenenvm.realtime;

import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * Iterates one {@link LivePostingList}: docs ascending with freqs and positions, skipping whole
 * blocks through their summaries on {@link #advance}, and exposing each block's competitive impact
 * (one level: the block holding the target) so block-max WAND and MaxScore skip here as in a
 * flushed segment.
 *
 * <p>Without positions the enum decodes the postings a block at a time ({@value #BLOCK}, never
 * across a block boundary) into a buffer of docs and freqs, which {@link #nextDoc}, {@link
 * #advance} and {@link #nextPostings} then read as arrays, as Lucene's block postings do. With
 * positions it decodes one posting at a time, since a posting's positions follow its doc and freq
 * in the slices.
 */
final class LivePostingsEnum extends ImpactsEnum {
  private static final int BLOCK = LiveTermPostings.BLOCK;

  private final LivePostingList postings;
  private final LivePostingCursor cursor;
  private final boolean positions;
  /** Postings decoded per refill: a block's worth, or one when positions are read. */
  private final int batch;
  private final int[] docs;
  private final int[] freqs;
  /** Postings in {@link #docs} / {@link #freqs}; the current one is at {@link #bufferIndex}. */
  private int bufferSize;
  private int bufferIndex = -1;
  /** Postings decoded from the slices so far (the cursor stands before posting {@code consumed}). */
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
    this.batch = this.positions ? 1 : BLOCK;
    int capacity = Math.min(batch, postings.size());
    this.docs = new int[capacity];
    this.freqs = new int[capacity];
    impactBuffer.growNoCopy(1);
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() {
    if (bufferIndex + 1 < bufferSize) {
      return doc = docs[++bufferIndex];
    }
    if (consumed == postings.size()) {
      bufferIndex = bufferSize;
      return doc = NO_MORE_DOCS;
    }
    refill();
    return doc = docs[0];
  }

  /** Decodes the next postings, up to {@link #batch} and the end of the current block. */
  private void refill() {
    int n = Math.min(batch, Math.min(postings.size() - consumed, BLOCK - consumed % BLOCK));
    cursor.decode(docs, freqs, n);
    consumed += n;
    bufferSize = n;
    bufferIndex = 0;
  }

  @Override
  public int advance(int target) {
    if (bufferSize == 0 || docs[bufferSize - 1] < target) {
      bufferIndex = bufferSize - 1; // the buffer is behind the target: decode further
      int blocks = postings.blocks();
      int block = consumed / BLOCK;
      if (block < blocks && postings.blockLastDoc(block) < target) {
        do {
          block++;
        } while (block < blocks && postings.blockLastDoc(block) < target);
        cursor.resetToBlock(postings.summaries(), block - 1, postings.start());
        consumed = block * BLOCK;
        bufferSize = 0;
        bufferIndex = -1;
      }
    }
    int d;
    do {
      d = nextDoc();
    } while (d < target);
    return d;
  }

  @Override
  public void nextPostings(int upTo, DocAndFloatFeatureBuffer buffer) {
    if (doc >= upTo) {
      buffer.size = 0;
      return;
    }
    int end = bufferIndex + 1;
    while (end < bufferSize && docs[end] < upTo) {
      end++;
    }
    int n = end - bufferIndex;
    buffer.growNoCopy(n);
    System.arraycopy(docs, bufferIndex, buffer.docs, 0, n);
    for (int i = 0; i < n; i++) {
      buffer.features[i] = freqs[bufferIndex + i];
    }
    buffer.size = n;
    bufferIndex = end - 1;
    nextDoc();
  }

  @Override
  public int freq() {
    return freqs[bufferIndex];
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
