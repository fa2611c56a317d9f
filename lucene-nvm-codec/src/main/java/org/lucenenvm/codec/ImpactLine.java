package org.lucenenvm.codec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.codecs.Impact;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.util.BitUtil;

/**
 * One cache line ({@value #BYTES} bytes) of competitive (freq, norm) pairs, the unit in which
 * {@link NvmPostingsFormat} stores the impacts of a block or a group of blocks:
 *
 * <pre>
 * ImpactLine --&gt; Count (byte), NormWidth (byte), 0 (byte), 0 (byte),
 *                 Freq (Int32)<sup>Count</sup>, Norm<sup>Count</sup>, zero padding
 * </pre>
 *
 * Norm is a signed byte when NormWidth is 1 (Lucene's default norms are bytes), else a signed
 * Int32. A line holds up to {@value #MAX_BYTE_NORM_PAIRS} pairs with byte norms and {@value
 * #MAX_INT_NORM_PAIRS} with int norms; longer lists are reduced by merging neighbouring pairs into
 * (higher freq, lower norm), and norms that do not fit an Int32 make the line the single pair
 * (highest freq, norm 0). Either way the line stays an upper bound of every score in its range,
 * so skipping stays exact; it is only less tight.
 */
final class ImpactLine {
  /** Size of a line in bytes: one cache line. */
  static final int BYTES = 64;

  private static final int HEADER_BYTES = 4;
  static final int MAX_BYTE_NORM_PAIRS = (BYTES - HEADER_BYTES) / (Integer.BYTES + Byte.BYTES);
  static final int MAX_INT_NORM_PAIRS = (BYTES - HEADER_BYTES) / (Integer.BYTES + Integer.BYTES);

  private ImpactLine() {}

  /** Encodes {@code impacts} (increasing freq and unsigned norm) into {@code dst[offset, +64)}. */
  static void encode(Collection<Impact> impacts, byte[] dst, int offset) {
    List<Impact> pairs = new ArrayList<>(impacts);
    boolean byteNorms = true;
    boolean intNorms = true;
    for (Impact impact : pairs) {
      byteNorms &= impact.norm == (byte) impact.norm;
      intNorms &= impact.norm == (int) impact.norm;
    }
    if (intNorms == false) {
      pairs = List.of(new Impact(pairs.getLast().freq, 0L));
      byteNorms = true;
    }
    int normWidth = byteNorms ? Byte.BYTES : Integer.BYTES;
    mergeToFit(pairs, byteNorms ? MAX_BYTE_NORM_PAIRS : MAX_INT_NORM_PAIRS);
    int count = pairs.size();
    dst[offset] = (byte) count;
    dst[offset + 1] = (byte) normWidth;
    int normsStart = offset + HEADER_BYTES + count * Integer.BYTES;
    for (int i = 0; i < count; i++) {
      Impact impact = pairs.get(i);
      BitUtil.VH_LE_INT.set(dst, offset + HEADER_BYTES + i * Integer.BYTES, impact.freq);
      if (byteNorms) {
        dst[normsStart + i] = (byte) impact.norm;
      } else {
        BitUtil.VH_LE_INT.set(dst, normsStart + i * Integer.BYTES, (int) impact.norm);
      }
    }
  }

  /** Merges the two neighbours closest in freq until at most {@code capacity} pairs remain. */
  private static void mergeToFit(List<Impact> pairs, int capacity) {
    while (pairs.size() > capacity) {
      int closest = 0;
      for (int i = 1; i + 1 < pairs.size(); i++) {
        int gap = pairs.get(i + 1).freq - pairs.get(i).freq;
        if (gap < pairs.get(closest + 1).freq - pairs.get(closest).freq) {
          closest = i;
        }
      }
      Impact merged = new Impact(pairs.get(closest + 1).freq, pairs.get(closest).norm);
      pairs.set(closest, merged);
      pairs.remove(closest + 1);
    }
  }

  /** Decodes the line in {@code src[0, 64)} into {@code buffer}. */
  static void decode(byte[] src, FreqAndNormBuffer buffer) {
    int count = src[0] & 0xFF;
    int normWidth = src[1];
    buffer.growNoCopy(count);
    int normsStart = HEADER_BYTES + count * Integer.BYTES;
    for (int i = 0; i < count; i++) {
      buffer.freqs[i] = (int) BitUtil.VH_LE_INT.get(src, HEADER_BYTES + i * Integer.BYTES);
      buffer.norms[i] =
          normWidth == Byte.BYTES
              ? src[normsStart + i]
              : (int) BitUtil.VH_LE_INT.get(src, normsStart + i * Integer.BYTES);
    }
    buffer.size = count;
  }
}
