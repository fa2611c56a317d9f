package org.lucenenvm.realtime;

import java.util.Arrays;
import org.apache.lucene.util.ArrayUtil;

/**
 * The journal of the document a {@link LiveTermPostings} is adding, so that a failed add leaves
 * nothing behind: the state, term address and write cursor of every term the document touches, and
 * where its writes first left the term's slice (the overwritten end marker's address, or -1) with
 * that marker. {@link #rollback} erases the bytes written after the journaled cursor (restoring the
 * slice's end marker, see {@link LiveSlices}) and release-stores the old state, then the old term
 * address. So a document that failed half-way leaves no posting behind and the next document
 * reuses its doc id and bytes (not those of a slice or a block allocated for it, which stay unused
 * in the pool). A reader that loaded a state counting such a posting may then load a term address
 * restored to an inline posting; it loads both again ({@link LivePostingList}). Writer only.
 */
final class LiveAddJournal {
  private final LiveBytePool pool;
  private int[] touched = new int[16];
  private long[] savedState = new long[16];
  private int[] savedTermAddress = new int[16];
  private int[] savedCursor = new int[16];
  private int[] crossedAt = new int[16];
  private byte[] crossedMarker = new byte[16];
  private int touchedCount;

  LiveAddJournal(LiveBytePool pool) {
    this.pool = pool;
  }

  /** Journals term {@code id} of {@code t} as it is before the current document writes to it. */
  void record(LiveTermHash.Table t, int id) {
    if (touchedCount == touched.length) {
      int n = ArrayUtil.oversize(touchedCount + 1, Long.BYTES);
      touched = ArrayUtil.growExact(touched, n);
      savedState = ArrayUtil.growExact(savedState, n);
      savedTermAddress = ArrayUtil.growExact(savedTermAddress, n);
      savedCursor = ArrayUtil.growExact(savedCursor, n);
      crossedAt = ArrayUtil.growExact(crossedAt, n);
      crossedMarker = ArrayUtil.growExact(crossedMarker, n);
    }
    touched[touchedCount] = id;
    savedState[touchedCount] = t.state[id];
    savedTermAddress[touchedCount] = t.termAddress[id];
    savedCursor[touchedCount] = t.cursor[id];
    crossedAt[touchedCount] = -1;
    touchedCount++;
  }

  /**
   * Notes that the term journaled last continues into a new slice at the full slice's end marker
   * {@code address}, which held {@code marker}; only its first crossing is kept.
   */
  void crossed(int address, byte marker) {
    int entry = touchedCount - 1;
    if (crossedAt[entry] < 0) {
      crossedAt[entry] = address;
      crossedMarker[entry] = marker;
    }
  }

  /** Forgets the journal: the document was published. */
  void commit() {
    touchedCount = 0;
  }

  /**
   * Restores every term the current document touched in {@code t} (newest first): erases what it
   * wrote into a slice that held postings before, then release-stores the old state and term
   * address.
   */
  void rollback(LiveTermHash.Table t) {
    for (int i = touchedCount - 1; i >= 0; i--) {
      int id = touched[i];
      long state = savedState[i];
      int address = savedTermAddress[i];
      if (!LiveBlockLayout.isInline(t.key[id]) || (state >>> 32) > 0 && address >= 0) {
        erase(savedCursor[i], crossedAt[i] < 0 ? t.cursor[id] : crossedAt[i]);
        if (crossedAt[i] >= 0) {
          pool.slab(crossedAt[i])[crossedAt[i] & LiveBytePool.SLAB_MASK] = crossedMarker[i];
        }
      } // else the slice it wrote (if any) is new and stays unused
      t.cursor[id] = savedCursor[i];
      t.releaseState(id, state);
      t.releaseTermAddress(id, address);
    }
    touchedCount = 0;
  }

  /** Zeroes the bytes {@code [from, to)} of one slice. */
  private void erase(int from, int to) {
    int o = from & LiveBytePool.SLAB_MASK;
    Arrays.fill(pool.slab(from), o, o + (to - from), (byte) 0);
  }

  /** Bytes held by the journal's arrays. */
  long ramBytesUsed() {
    return (long) touched.length * (4 * Integer.BYTES + Long.BYTES + 1);
  }
}
