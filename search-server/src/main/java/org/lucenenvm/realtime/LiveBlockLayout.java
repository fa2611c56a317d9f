package org.lucenenvm.realtime;

import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.util.BytesRef;

/**
 * The layout of a live field's terms and postings, which {@link LiveTermPostings} writes and the
 * readers decode: the one definition of the constants and small static accessors both sides use.
 *
 * <p><b>Term key</b>, a {@code long} per term in the term table ({@link LiveTermHash}): a term of
 * at most {@value #INLINE_BYTES} bytes is held in its key whole, its bytes little-endian below its
 * length in the top byte; a longer term by its first {@value #INLINE_BYTES} bytes below {@code
 * 0xFF} in the top byte.
 *
 * <p><b>Term record</b>, in the {@link LiveBytePool} at a long term's term address: the length
 * (one byte below 128, else two bytes, big-endian, with the high bit of the first set), the term's
 * bytes, and right after them the first slice of its postings. An inline term has no record: its
 * term address is its first slice, which stands alone and is allocated with its first posting
 * that needs one. While an inline term has one posting of freq 1 (any posting, in a docs-only
 * field) the posting is held in the term table, the doc as the state's last doc and the position
 * as the term address {@code ~position} ({@code ~0} without positions; negative, unlike an
 * address).
 *
 * <p><b>Postings</b>: one slice chain per term ({@link LiveSlices}) in the format {@link
 * LivePostingCursor} decodes, cut into blocks of {@value #BLOCK} postings. A sealed block also has
 * a fixed-width copy of its docs and freqs ({@link LiveSealedBlock}).
 *
 * <p><b>Block summary</b>: {@value #SUMMARY_INTS} ints per sealed block, block {@code b} at {@code
 * b * SUMMARY_INTS} of the term's summary array (kept by term id in {@link LiveBlockSummaries}, as
 * most terms never fill a block):
 *
 * <ul>
 *   <li>{@link #LAST_DOC}: the block's last doc.
 *   <li>{@link #NEXT_ADDRESS}, {@link #NEXT_DATA_END}, {@link #NEXT_LEVEL}: where the next block's
 *       postings start: slice address, the address of that slice's end, its level.
 *   <li>{@link #TOTAL_TERM_FREQ}: the total term freq of the blocks up to and including this one.
 *   <li>{@link #SEALED_ADDRESS}: the pool address of the block's fixed-width copy.
 *   <li>{@link #IMPACT_COUNT}, then from {@link #IMPACTS} that many (freq, norm) pairs of three ints
 *       (the freq, the norm's high and low ints), at most {@value #IMPACT_PAIRS}, ascending in freq
 *       and in unsigned norm as Lucene orders impacts. They are the block's competitive pairs;
 *       where there are more, consecutive pairs are merged into one that dominates them (the higher
 *       freq, the lower norm), so every pair stays an upper bound.
 * </ul>
 */
final class LiveBlockLayout {
  /** Postings per block. */
  static final int BLOCK = 128;
  /** Competitive (freq, norm) pairs a block's summary keeps, at most. */
  static final int IMPACT_PAIRS = 4;
  /** Offsets in a block's summary (see the class documentation). */
  static final int LAST_DOC = 0;
  /** Where the next block's postings start: slice address, data end and slice level. */
  static final int NEXT_ADDRESS = 1;
  static final int NEXT_DATA_END = 2;
  static final int NEXT_LEVEL = 3;
  static final int TOTAL_TERM_FREQ = 4;
  static final int SEALED_ADDRESS = 5;
  static final int IMPACT_COUNT = 6;
  /** The first pair's freq; its norm's high and low ints follow, then the next pair. */
  static final int IMPACTS = 7;
  static final int SUMMARY_INTS = IMPACTS + 3 * IMPACT_PAIRS;

  /** Terms up to this many bytes are held whole in their key (no bytes in the pool). */
  static final int INLINE_BYTES = 7;
  /** The top byte of the key of a term longer than {@link #INLINE_BYTES}. */
  private static final int LONG_TERM = 0xFF;

  private LiveBlockLayout() {}

  /** The key of {@code term}. */
  static long key(BytesRef term) {
    int inline = Math.min(term.length, INLINE_BYTES);
    long key = (long) (term.length <= INLINE_BYTES ? term.length : LONG_TERM) << 56;
    for (int i = 0; i < inline; i++) {
      key |= (term.bytes[term.offset + i] & 0xFFL) << (i << 3);
    }
    return key;
  }

  /** Whether {@code key} holds its term whole. */
  static boolean isInline(long key) {
    return (int) (key >>> 56) != LONG_TERM;
  }

  /** The length of the term an inline {@code key} holds. */
  static int inlineLength(long key) {
    return (int) (key >>> 56);
  }

  /** The length of the term whose record starts at offset {@code o} of {@code slab}. */
  static int recordLength(byte[] slab, int o) {
    int length = slab[o];
    return length >= 0 ? length : (length & 0x7F) << 8 | (slab[o + 1] & 0xFF);
  }

  /** Bytes a term record's length takes before the term's bytes. */
  static int lengthBytes(int length) {
    return length < 0x80 ? 1 : 2;
  }

  /** Writes the length of a term record at offset {@code o} of {@code slab}; returns its bytes. */
  static int writeRecordLength(byte[] slab, int o, int length) {
    if (length < 0x80) {
      slab[o] = (byte) length;
      return 1;
    }
    slab[o] = (byte) (0x80 | length >>> 8);
    slab[o + 1] = (byte) length;
    return 2;
  }

  /** The last doc of block {@code block}. */
  static int lastDoc(int[] summaries, int block) {
    return summaries[block * SUMMARY_INTS + LAST_DOC];
  }

  /** The total term freq of blocks {@code 0..block}. */
  static int totalTermFreq(int[] summaries, int block) {
    return summaries[block * SUMMARY_INTS + TOTAL_TERM_FREQ];
  }

  /** The pool address of block {@code block}'s fixed-width copy. */
  static int sealedAddress(int[] summaries, int block) {
    return summaries[block * SUMMARY_INTS + SEALED_ADDRESS];
  }

  /** Writes pair {@code pair} of the impacts of the summary at {@code offset}. */
  static void setImpact(int[] summaries, int offset, int pair, int freq, long norm) {
    int at = offset + IMPACTS + 3 * pair;
    summaries[at] = freq;
    summaries[at + 1] = (int) (norm >>> 32);
    summaries[at + 2] = (int) norm;
  }

  /** Fills {@code buffer} with the competitive impacts of block {@code block}. */
  static void readImpacts(int[] summaries, int block, FreqAndNormBuffer buffer) {
    int s = block * SUMMARY_INTS;
    int count = summaries[s + IMPACT_COUNT];
    for (int i = 0; i < count; i++) {
      int at = s + IMPACTS + 3 * i;
      buffer.freqs[i] = summaries[at];
      buffer.norms[i] = (long) summaries[at + 1] << 32 | (summaries[at + 2] & 0xFFFFFFFFL);
    }
    buffer.size = count;
  }
}
