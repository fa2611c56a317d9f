package org.lucenenvm.realtime;

import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.VectorUtil;

/**
 * Iterates one {@link LivePostingList}: docs ascending with freqs and positions, skipping whole
 * blocks through their summaries on {@link #advance}, and exposing each block's competitive impacts
 * (one level: the block holding the target; the trailing partial block's max freq and min norm)
 * so block-max WAND and MaxScore skip here as in a flushed segment.
 *
 * <p>Without positions the enum fills a buffer of docs and freqs a block ({@value #BLOCK}) at a
 * time, which {@link #nextDoc}, {@link #advance} and {@link #nextPostings} then read as arrays, as
 * Lucene's block postings do (searching a block with {@link VectorUtil#findNextGEQ}): a whole
 * block from its fixed-width copy ({@link LiveSealedBlock}; its freqs only when asked for), the
 * trailing partial block from the copy its term lookup decoded, or else by decoding its vInts. With
 * positions it decodes one posting at a time from the vInts, since a posting's positions follow
 * its doc and freq there. {@link LiveTerms}' {@code postings(reuse, flags)} {@link #reset resets}
 * a reused enum, keeping its buffers.
 */
final class LivePostingsEnum extends ImpactsEnum {
  private static final int BLOCK = LiveBlockLayout.BLOCK;

  private LivePostingList postings;
  /** Decodes the vInts; made on first use, again only for a list over other slabs. */
  private LivePostingCursor cursor;
  private boolean positions;
  /** Postings decoded per refill: a block's worth, or one when positions are read. */
  private int batch;
  private int[] docs = new int[0];
  private int[] freqs = new int[0];
  /** Postings in {@link #docs} / {@link #freqs}; the current one is at {@link #bufferIndex}. */
  private int bufferSize;
  private int bufferIndex;
  /** Postings taken into the buffer so far. */
  private int consumed;
  /**
   * Whether {@link #freqs} still lacks the freqs of the buffered block, a sealed one whose copy is
   * at {@link #freqsAddress} (decoded on first use: a conjunction's advance often needs none).
   */
  private boolean freqsPending;
  private int freqsAddress;
  /** The posting the cursor stands before, or -1 when it must be positioned first. */
  private int cursorAt;
  private int doc;
  private int shallowTarget;
  private int impactBlock;
  private final FreqAndNormBuffer impactBuffer = new FreqAndNormBuffer();

  LivePostingsEnum(LivePostingList postings, boolean positions) {
    impactBuffer.growNoCopy(LiveBlockLayout.IMPACT_PAIRS);
    reset(postings, positions);
  }

  /** Positions this enum before the first posting of {@code list}, with or without positions. */
  LivePostingsEnum reset(LivePostingList list, boolean withPositions) {
    this.postings = list;
    this.positions = withPositions && list.hasPositions();
    this.batch = this.positions ? 1 : BLOCK;
    int capacity = Math.min(batch, list.size());
    if (docs.length < capacity) { // a short list gets short buffers; a reused enum grows them
      int length = Math.min(batch, ArrayUtil.oversize(capacity, Integer.BYTES));
      docs = new int[length];
      freqs = new int[length];
    }
    if (cursor != null && !cursor.reads(list.slabs(), list.hasPositions())) {
      cursor = null;
    }
    bufferSize = 0;
    bufferIndex = -1;
    consumed = 0;
    cursorAt = -1;
    freqsPending = false;
    doc = -1;
    shallowTarget = -1;
    impactBlock = 0;
    return this;
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

  /**
   * Fills the buffer with the next postings: a whole block from its fixed-width copy, else up to
   * {@link #batch} and the end of the current block from the vInts (the trailing partial block
   * from the list's copy when its lookup decoded it already).
   */
  private void refill() {
    int block = consumed / BLOCK;
    int n;
    if (!positions && block < postings.blocks()) {
      freqsAddress = postings.sealedBlockAddress(block);
      LiveSealedBlock.readDocs(
          postings.slabs(), freqsAddress, postings.docBeforeBlock(block), docs);
      freqsPending = true;
      n = BLOCK;
    } else {
      n = Math.min(batch, Math.min(postings.size() - consumed, BLOCK - consumed % BLOCK));
      if (positions || !postings.copyTail(consumed, docs, freqs, n)) {
        LivePostingCursor c = cursor();
        if (cursorAt != consumed) {
          postings.positionAtBlock(c, block - 1); // a block's start
        }
        c.decode(docs, freqs, n);
        cursorAt = consumed + n;
      }
      freqsPending = false;
    }
    consumed += n;
    bufferSize = n;
    bufferIndex = 0;
  }

  private LivePostingCursor cursor() {
    if (cursor == null) {
      cursor = new LivePostingCursor(postings.slabs(), postings.hasPositions());
    }
    return cursor;
  }

  @Override
  public int advance(int target) {
    while (true) {
      int from = bufferIndex + 1;
      if (from < bufferSize && docs[bufferSize - 1] >= target) {
        bufferIndex = VectorUtil.findNextGEQ(docs, target, from, bufferSize);
        return doc = docs[bufferIndex];
      }
      if (consumed < postings.size()) {
        skipBlocksBefore(target);
      }
      if (consumed == postings.size()) {
        bufferIndex = bufferSize;
        return doc = NO_MORE_DOCS;
      }
      refill();
      bufferIndex = -1;
    }
  }

  /** Skips the whole blocks ahead whose last doc is below {@code target}, by their summaries. */
  private void skipBlocksBefore(int target) {
    int blocks = postings.blocks();
    int block = consumed / BLOCK;
    if (block < blocks && postings.blockLastDoc(block) < target) {
      do {
        block++;
      } while (block < blocks && postings.blockLastDoc(block) < target);
      consumed = block * BLOCK;
    }
  }

  @Override
  public void nextPostings(int upTo, DocAndFloatFeatureBuffer buffer) {
    if (doc >= upTo) {
      buffer.size = 0;
      return;
    }
    int end = VectorUtil.findNextGEQ(docs, upTo, bufferIndex + 1, bufferSize);
    int n = end - bufferIndex;
    loadFreqs();
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
    loadFreqs();
    return freqs[bufferIndex];
  }

  /** Decodes the freqs of the buffered sealed block, if not yet done. */
  private void loadFreqs() {
    if (freqsPending) {
      LiveSealedBlock.readFreqs(postings.slabs(), freqsAddress, freqs);
      freqsPending = false;
    }
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
          if (impactBlock < postings.blocks()) {
            postings.blockImpacts(impactBlock, impactBuffer);
          } else {
            impactBuffer.freqs[0] = postings.tailMaxFreq();
            impactBuffer.norms[0] = postings.tailMinNorm();
            impactBuffer.size = 1;
          }
          return impactBuffer;
        }
      };
}
