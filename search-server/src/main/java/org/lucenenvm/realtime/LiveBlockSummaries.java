package org.lucenenvm.realtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * The block summaries ({@link LiveBlockLayout}) of the terms of one field of a live segment that
 * sealed a block, by term id: an open-addressing map (linear probing, at most half full) from term
 * id to the term's summary array. Most terms of a live segment never fill a block, so a map costs far less than a summary
 * reference per term.
 *
 * <p>Memory model (one writer, any number of readers, no locks): the writer {@link #put puts} a
 * term's new or grown array before it release-stores the term's state that counts the new block; a
 * reader that loaded that state with acquire semantics then {@link #get gets} an array that holds
 * the block. An entry's id is release-stored after its array, an array replaced with a release
 * store, and a grown map is a complete copy published through a volatile field.
 */
final class LiveBlockSummaries {
  private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle ARRAYS = MethodHandles.arrayElementVarHandle(int[][].class);

  /** Slots: term id plus one (0: empty) and its summaries. */
  private static final class Slots {
    final int[] ids;
    final int[][] arrays;

    Slots(int size) {
      ids = new int[size];
      arrays = new int[size][];
    }

    /**
     * The slot of {@code id}, or {@code -(slot + 1)} of the empty slot where it would go. Safe for
     * readers: a slot's id is loaded once, with acquire semantics (a slot once taken keeps its id).
     */
    int find(int id) {
      int mask = ids.length - 1;
      int slot = hash(id) & mask;
      while (true) {
        int v = (int) IDS.getAcquire(ids, slot);
        if (v == id + 1) {
          return slot;
        }
        if (v == 0) {
          return -slot - 1;
        }
        slot = (slot + 1) & mask;
      }
    }
  }

  private volatile Slots slots = new Slots(16);
  private int size;

  /** The summaries of term {@code id} (load after the term's state), or null when it has none. */
  int[] get(int id) {
    Slots s = slots;
    int slot = s.find(id);
    return slot < 0 ? null : (int[]) ARRAYS.getAcquire(s.arrays, slot);
  }

  /** Sets the summaries of term {@code id} (writer only). */
  void put(int id, int[] summaries) {
    Slots s = slots;
    int slot = s.find(id);
    if (slot >= 0) {
      ARRAYS.setRelease(s.arrays, slot, summaries);
      return;
    }
    if ((size + 1) * 2 > s.ids.length) {
      s = grow(s);
      slots = s;
      slot = s.find(id);
    }
    slot = -slot - 1;
    s.arrays[slot] = summaries;
    IDS.setRelease(s.ids, slot, id + 1);
    size++;
  }

  private static Slots grow(Slots s) {
    Slots grown = new Slots(s.ids.length * 2);
    for (int i = 0; i < s.ids.length; i++) {
      if (s.ids[i] != 0) {
        int slot = -grown.find(s.ids[i] - 1) - 1;
        grown.ids[slot] = s.ids[i];
        grown.arrays[slot] = s.arrays[i];
      }
    }
    return grown;
  }

  /** Fibonacci hashing: consecutive ids land far apart. */
  private static int hash(int id) {
    int h = id * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** Bytes of the map's slots (the summary arrays are counted by their owner). */
  long ramBytesUsed() {
    Slots s = slots;
    return RamUsageEstimator.sizeOf(s.ids) + RamUsageEstimator.shallowSizeOf(s.arrays);
  }
}
