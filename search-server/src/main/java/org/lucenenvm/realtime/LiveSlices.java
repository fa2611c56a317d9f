package org.lucenenvm.realtime;

/**
 * Slice chains in a {@link LiveBytePool}: each term's postings are a chain of slices of growing
 * size ({@link #size}); the last {@value #POINTER_BYTES} bytes of a slice hold the address of the
 * next one once the writer has filled it. Until then the first of those bytes is the slice's end
 * marker, its level plus one (never 0), and every byte between the writer's cursor and the marker
 * is 0 (the pool starts zeroed; a rolled-back write is erased): so the writer needs no per-term
 * record of where a slice ends or of its level, as in Lucene's {@code ByteSlicePool}. Readers
 * derive every slice's end from its level and never look at a marker.
 */
final class LiveSlices {
  static final int POINTER_BYTES = 4;
  private static final int[] SIZES = {10, 14, 20, 28, 40, 56, 80, 112, 160};

  private LiveSlices() {}

  /** Size in bytes (pointer included) of a slice of {@code level}. */
  static int size(int level) {
    return SIZES[level];
  }

  static int nextLevel(int level) {
    return Math.min(level + 1, SIZES.length - 1);
  }

  /** Allocates a slice of {@code level}, marks its end and returns its address. */
  static int allocate(LiveBytePool pool, int level) {
    int address = pool.allocate(size(level));
    markEnd(pool, address, level);
    return address;
  }

  /** Writes the end marker of the slice of {@code level} that starts at {@code address}. */
  static void markEnd(LiveBytePool pool, int address, int level) {
    int end = address + size(level) - POINTER_BYTES;
    pool.slab(end)[end & LiveBytePool.SLAB_MASK] = marker(level);
  }

  /** The end marker of a slice of {@code level}. */
  static byte marker(int level) {
    return (byte) (level + 1);
  }

  /** The level of a slice whose end marker is {@code marker}. */
  static int level(byte marker) {
    return marker - 1;
  }

  /**
   * Address of the end marker of the writer's current slice, whose cursor is {@code cursor}: the
   * first byte at or after it that is not 0.
   */
  static int dataEnd(LiveBytePool pool, int cursor) {
    byte[] slab = pool.slab(cursor);
    int o = cursor & LiveBytePool.SLAB_MASK;
    while (slab[o] == 0) {
      o++;
    }
    return (cursor & ~LiveBytePool.SLAB_MASK) | o;
  }

  /** Writes the forward {@code pointer} at {@code address} (the end of a slice's data). */
  static void writePointer(LiveBytePool pool, int address, int pointer) {
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    slab[o] = (byte) (pointer >>> 24);
    slab[o + 1] = (byte) (pointer >>> 16);
    slab[o + 2] = (byte) (pointer >>> 8);
    slab[o + 3] = (byte) pointer;
  }

  static int readPointer(byte[] slab, int offset) {
    return ((slab[offset] & 0xFF) << 24)
        | ((slab[offset + 1] & 0xFF) << 16)
        | ((slab[offset + 2] & 0xFF) << 8)
        | (slab[offset + 3] & 0xFF);
  }

  /**
   * A forward-only cursor over a slice chain. Position it with {@link #reset}; the bytes it reads
   * must be covered by the reader's synchronization with the writer (see {@link LiveBytePool}).
   */
  static final class Reader {
    private final byte[][] slabs;
    private byte[] slab;
    private int pos;
    private int end;
    private int level;

    Reader(byte[][] slabs) {
      this.slabs = slabs;
    }

    /** Positions at the start of {@code bytes}, which hold {@code length} bytes of postings and no slice pointer. */
    void reset(byte[] bytes, int length) {
      this.slab = bytes;
      this.pos = 0;
      this.end = length;
      this.level = 0;
    }

    /** Positions at {@code address} inside a slice of {@code level} whose data ends at {@code dataEnd}. */
    void reset(int address, int dataEnd, int level) {
      this.slab = slabs[address >>> LiveBytePool.SLAB_SHIFT];
      this.pos = address & LiveBytePool.SLAB_MASK;
      this.end = dataEnd & LiveBytePool.SLAB_MASK;
      this.level = level;
      if (pos > end) {
        throw new IllegalStateException("slice position " + pos + " beyond its end " + end);
      }
    }

    byte readByte() {
      if (pos == end) {
        nextSlice();
      }
      return slab[pos++];
    }

    private void nextSlice() {
      int next = readPointer(slab, pos);
      level = nextLevel(level);
      slab = slabs[next >>> LiveBytePool.SLAB_SHIFT];
      pos = next & LiveBytePool.SLAB_MASK;
      end = pos + size(level) - POINTER_BYTES;
    }

    /** Skips {@code count} bytes (all written: a slice is left only for bytes beyond it). */
    void skipBytes(int count) {
      while (count > end - pos) {
        count -= end - pos;
        pos = end;
        nextSlice();
      }
      pos += count;
    }

    int readVInt() {
      if (end - pos >= 5) { // the whole vInt lies in this slice: no boundary check per byte
        byte[] s = slab;
        int p = pos;
        byte b = s[p++];
        int i = b & 0x7F;
        for (int shift = 7; b < 0; shift += 7) {
          b = s[p++];
          i |= (b & 0x7F) << shift;
        }
        pos = p;
        return i;
      }
      byte b = readByte();
      int i = b & 0x7F;
      for (int shift = 7; b < 0; shift += 7) {
        b = readByte();
        i |= (b & 0x7F) << shift;
      }
      return i;
    }

    /** Skips {@code count} vInts. */
    void skipVInts(int count) {
      byte[] s = slab;
      int p = pos;
      while (count > 0) {
        if (p == end) {
          pos = p;
          nextSlice();
          s = slab;
          p = pos;
        }
        if (s[p++] >= 0) {
          count--;
        }
      }
      pos = p;
    }
  }
}
