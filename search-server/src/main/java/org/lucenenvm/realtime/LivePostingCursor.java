package org.lucenenvm.realtime;

/**
 * Decodes one term's postings in the slice format of {@link LiveBlockLayout}: per posting, for
 * docs-only fields {@code vInt(docDelta)}; for fields with positions {@code vInt(docDelta << 1 |
 * (freq == 1 ? 1 : 0))}, then when freq &gt; 1 {@code vInt(freq)} and {@code vInt(positionBytes)},
 * then freq {@code vInt(positionDelta)} taking {@code positionBytes} bytes. The first doc delta is
 * taken from doc -1. Positions not read are skipped on {@link #next}: by their byte length when
 * freq &gt; 1, so a query that needs no positions does not decode them.
 */
final class LivePostingCursor {
  private final LiveSlices.Reader in;
  private final byte[][] slabs;
  private final boolean withPositions;
  private int doc;
  private int freq;
  private int positionsLeft;
  /** Bytes of the current posting's unread positions, or 0 when freq is 1 (not recorded). */
  private int positionBytesLeft;
  private int position;
  /** The encoded posting of a term held inline (see {@link #resetToInline}), made on first use. */
  private byte[] inline;

  LivePostingCursor(byte[][] slabs, boolean withPositions) {
    this.in = new LiveSlices.Reader(slabs);
    this.slabs = slabs;
    this.withPositions = withPositions;
  }

  /** Whether this cursor decodes postings in {@code slabs} with or without positions as asked. */
  boolean reads(byte[][] slabs, boolean withPositions) {
    return this.slabs == slabs && this.withPositions == withPositions;
  }

  /** Positions before a posting whose predecessor (if any) is {@code previousDoc}. */
  void reset(int address, int dataEnd, int level, int previousDoc) {
    in.reset(address, dataEnd, level);
    doc = previousDoc;
    freq = 0;
    positionsLeft = 0;
    positionBytesLeft = 0;
  }

  /** Positions at the start of a block described by {@code summaries} (block -1: the list start). */
  void resetToBlock(int[] summaries, int block, int start) {
    if (block < 0) {
      reset(start, start + LiveSlices.size(0) - LiveSlices.POINTER_BYTES, 0, -1);
    } else {
      int s = block * LiveBlockLayout.SUMMARY_INTS;
      reset(
          summaries[s + LiveBlockLayout.NEXT_ADDRESS],
          summaries[s + LiveBlockLayout.NEXT_DATA_END],
          summaries[s + LiveBlockLayout.NEXT_LEVEL],
          summaries[s + LiveBlockLayout.LAST_DOC]);
    }
  }

  /**
   * Positions before the one posting of a term that holds it inline ({@link LiveBlockLayout}):
   * {@code doc} with freq 1 at {@code position}, encoded as a slice would hold it.
   */
  void resetToInline(int doc, int position) {
    if (inline == null) {
      inline = new byte[10];
    }
    int length =
        withPositions
            ? putVInt(putVInt(0, (doc + 1) << 1 | 1), position)
            : putVInt(0, doc + 1);
    in.reset(inline, length);
    this.doc = -1;
    freq = 0;
    positionsLeft = 0;
    positionBytesLeft = 0;
  }

  private int putVInt(int offset, int value) {
    while ((value & ~0x7F) != 0) {
      inline[offset++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    inline[offset++] = (byte) value;
    return offset;
  }

  /** Decodes the next posting and returns its doc. */
  int next() {
    if (positionBytesLeft > 0) {
      in.skipBytes(positionBytesLeft);
    } else if (positionsLeft > 0) {
      in.skipVInts(positionsLeft);
    }
    if (withPositions) {
      int code = in.readVInt();
      doc += code >>> 1;
      if ((code & 1) != 0) {
        freq = 1;
        positionBytesLeft = 0;
      } else {
        freq = in.readVInt();
        positionBytesLeft = in.readVInt();
      }
      positionsLeft = freq;
      position = 0;
    } else {
      doc += in.readVInt();
      freq = 1;
    }
    return doc;
  }

  int freq() {
    return freq;
  }

  /** Decodes the next {@code count} postings into {@code docs} and {@code freqs}. */
  void decode(int[] docs, int[] freqs, int count) {
    for (int i = 0; i < count; i++) {
      docs[i] = next();
      freqs[i] = freq;
    }
  }

  /** The next position of the current posting (the caller reads at most {@link #freq} of them). */
  int nextPosition() {
    positionsLeft--;
    int delta = in.readVInt();
    if (positionBytesLeft > 0) {
      positionBytesLeft -= vIntBytes(delta);
    }
    position += delta;
    return position;
  }

  /** Bytes of {@code value} (non-negative) as a vInt. */
  static int vIntBytes(int value) {
    return (38 - Integer.numberOfLeadingZeros(value | 1)) / 7;
  }
}
