package org.lucenenvm.realtime;

import java.util.Arrays;
import org.apache.lucene.util.BitUtil;

/**
 * The fixed-width copy of one sealed block ({@value LiveBlockLayout#BLOCK} postings) of a term's
 * live postings, which a reader that needs no positions decodes with one pass over a contiguous
 * byte range instead of one vInt (and the skipped positions) per posting. The writer encodes a
 * block once, when it seals it; the vInt slices keep the same postings with their positions.
 *
 * <p><b>Format</b>, {@link LiveBytePool} bytes at the address a block summary records, never across
 * a slab:
 *
 * <ul>
 *   <li>Header: one byte, {@code docWidthCode | (freqWidthCode + 1) << 2}.
 *   <li>DocDeltas: {@value LiveBlockLayout#BLOCK} values of the block's doc width; the first delta
 *       is taken from the previous block's last doc (-1 before the first block).
 *   <li>Freqs: {@value LiveBlockLayout#BLOCK} values of the block's freq width; absent (freq
 *       width code -1) when every freq is 1, as always in docs-only fields.
 * </ul>
 *
 * A width code is the fewest of 4 bits (code 0; two values a byte, the first in the low nibble), 1,
 * 2 or 4 bytes (codes 1, 2, 3; little-endian) that hold the block's largest value. Variable widths
 * rather than plain int32 keep a sealed block at about one byte per posting for the frequent terms
 * that fill blocks, so the live segment stays within its memory bound; widening the values costs
 * about what a copy does.
 */
final class LiveSealedBlock {
  private static final int BLOCK = LiveBlockLayout.BLOCK;

  private LiveSealedBlock() {}

  /**
   * Writes the block of {@code docs} and {@code freqs} ({@value LiveBlockLayout#BLOCK} each),
   * which follows {@code previousDoc}, into {@code pool} and returns its address.
   */
  static int write(LiveBytePool pool, int previousDoc, int[] docs, int[] freqs) {
    int maxDelta = 0;
    int maxFreq = 0;
    int previous = previousDoc;
    for (int i = 0; i < BLOCK; i++) {
      maxDelta = Math.max(maxDelta, docs[i] - previous);
      previous = docs[i];
      maxFreq = Math.max(maxFreq, freqs[i]);
    }
    int docCode = widthCode(maxDelta);
    int freqCode = maxFreq == 1 ? -1 : widthCode(maxFreq);
    int docBytes = bytes(docCode);
    int address = pool.allocate(1 + docBytes + (freqCode < 0 ? 0 : bytes(freqCode)));
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    slab[o++] = (byte) (docCode | (freqCode + 1) << 2);
    previous = previousDoc;
    for (int i = 0; i < BLOCK; i++) {
      put(slab, o, docCode, i, docs[i] - previous);
      previous = docs[i];
    }
    if (freqCode >= 0) {
      o += docBytes;
      for (int i = 0; i < BLOCK; i++) {
        put(slab, o, freqCode, i, freqs[i]);
      }
    }
    return address;
  }

  /**
   * Decodes the docs of the block at {@code address}, which follows {@code previousDoc}, into the
   * first {@value LiveBlockLayout#BLOCK} entries of {@code docs}.
   */
  static void readDocs(byte[][] slabs, int address, int previousDoc, int[] docs) {
    byte[] slab = slabs[address >>> LiveBytePool.SLAB_SHIFT];
    int o = address & LiveBytePool.SLAB_MASK;
    get(slab, o + 1, slab[o] & 3, docs);
    int doc = previousDoc;
    for (int i = 0; i < BLOCK; i++) {
      doc += docs[i];
      docs[i] = doc;
    }
  }

  /**
   * Decodes the freqs of the block at {@code address} into the first {@value
   * LiveBlockLayout#BLOCK} entries of {@code freqs}.
   */
  static void readFreqs(byte[][] slabs, int address, int[] freqs) {
    byte[] slab = slabs[address >>> LiveBytePool.SLAB_SHIFT];
    int o = address & LiveBytePool.SLAB_MASK;
    int header = slab[o];
    int freqCode = (header >>> 2) - 1;
    if (freqCode < 0) {
      Arrays.fill(freqs, 0, BLOCK, 1);
    } else {
      get(slab, o + 1 + bytes(header & 3), freqCode, freqs);
    }
  }

  /** The width code of the largest value (non-negative) of a block: 4, 8, 16 or 32 bits. */
  private static int widthCode(int max) {
    return max < (1 << 4) ? 0 : max < (1 << 8) ? 1 : max < (1 << 16) ? 2 : 3;
  }

  /** Bytes of a block's values of width {@code code}. */
  private static int bytes(int code) {
    return code == 0 ? BLOCK / 2 : BLOCK << (code - 1);
  }

  /** Writes value {@code i} of width {@code code} of the values at {@code offset}. */
  private static void put(byte[] slab, int offset, int code, int i, int value) {
    switch (code) {
      case 0 -> slab[offset + (i >>> 1)] |= (byte) (value << ((i & 1) << 2));
      case 1 -> slab[offset + i] = (byte) value;
      case 2 -> BitUtil.VH_LE_SHORT.set(slab, offset + 2 * i, (short) value);
      default -> BitUtil.VH_LE_INT.set(slab, offset + 4 * i, value);
    }
  }

  /** Reads the {@value LiveBlockLayout#BLOCK} values of width {@code code} at {@code offset}. */
  private static void get(byte[] slab, int offset, int code, int[] values) {
    switch (code) {
      case 0 -> {
        for (int i = 0; i < BLOCK; i += 2) {
          int b = slab[offset + (i >>> 1)];
          values[i] = b & 0xF;
          values[i + 1] = (b >>> 4) & 0xF;
        }
      }
      case 1 -> {
        for (int i = 0; i < BLOCK; i++) {
          values[i] = slab[offset + i] & 0xFF;
        }
      }
      case 2 -> {
        for (int i = 0; i < BLOCK; i++) {
          values[i] = (short) BitUtil.VH_LE_SHORT.get(slab, offset + 2 * i) & 0xFFFF;
        }
      }
      default -> {
        for (int i = 0; i < BLOCK; i++) {
          values[i] = (int) BitUtil.VH_LE_INT.get(slab, offset + 4 * i);
        }
      }
    }
  }
}
