package org.lucenenvm.realtime;

import java.util.Arrays;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * The distinct terms of one field of one document, in order of first occurrence, each with its
 * positions: an open-addressing hash (linear probing, at most half full) over the terms' bytes,
 * copied into one growing array, so a token costs one hash and no object. Used by one thread for
 * one field; {@link #terms} and {@link #positions} are built once, at the end.
 */
final class FieldTermCollector {
  private byte[] bytes;
  private int bytesUsed;
  /** Per term: where its bytes start, their length, its hash, its positions and its freq. */
  private int[] starts;
  private int[] lengths;
  private int[] hashes;
  private int[][] positions;
  private int[] freqs;
  private int count;
  /** Term index + 1, or 0 for an empty slot. */
  private int[] slots;

  /** A collector sized for about {@code expectedTerms} distinct terms (it grows past them). */
  FieldTermCollector(int expectedTerms) {
    int terms = Math.max(expectedTerms, 4);
    bytes = new byte[terms * 8];
    starts = new int[terms];
    lengths = new int[terms];
    hashes = new int[terms];
    positions = new int[terms][];
    freqs = new int[terms];
    slots = new int[Integer.highestOneBit(terms) << 2];
  }

  /** Records an occurrence of {@code term} at {@code position}; returns the term's freq so far. */
  int add(BytesRef term, int position) {
    int hash = term.hashCode();
    int mask = slots.length - 1;
    int slot = hash & mask;
    for (int v = slots[slot]; v != 0; v = slots[slot]) {
      int t = v - 1;
      if (hashes[t] == hash
          && Arrays.equals(
              bytes, starts[t], starts[t] + lengths[t],
              term.bytes, term.offset, term.offset + term.length)) {
        return addPosition(t, position);
      }
      slot = (slot + 1) & mask;
    }
    int t = newTerm(term, hash);
    slots[slot] = t + 1;
    if (count * 2 > slots.length) {
      rehash(slots.length * 2);
    }
    return addPosition(t, position);
  }

  private int newTerm(BytesRef term, int hash) {
    int t = count++;
    if (t == starts.length) {
      int size = ArrayUtil.oversize(t + 1, Integer.BYTES);
      starts = ArrayUtil.growExact(starts, size);
      lengths = ArrayUtil.growExact(lengths, size);
      hashes = ArrayUtil.growExact(hashes, size);
      positions = ArrayUtil.growExact(positions, size);
      freqs = ArrayUtil.growExact(freqs, size);
    }
    bytes = ArrayUtil.grow(bytes, bytesUsed + term.length);
    System.arraycopy(term.bytes, term.offset, bytes, bytesUsed, term.length);
    starts[t] = bytesUsed;
    lengths[t] = term.length;
    hashes[t] = hash;
    positions[t] = new int[2];
    bytesUsed += term.length;
    return t;
  }

  private int addPosition(int t, int position) {
    int freq = freqs[t];
    if (freq == positions[t].length) {
      positions[t] = ArrayUtil.grow(positions[t], freq + 1);
    }
    positions[t][freq] = position;
    return freqs[t] = freq + 1;
  }

  private void rehash(int size) {
    int[] s = new int[size];
    int mask = size - 1;
    for (int t = 0; t < count; t++) {
      int slot = hashes[t] & mask;
      while (s[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      s[slot] = t + 1;
    }
    slots = s;
  }

  /** The distinct terms in order of first occurrence (sharing one byte array: do not modify). */
  BytesRef[] terms() {
    BytesRef[] terms = new BytesRef[count];
    for (int t = 0; t < count; t++) {
      terms[t] = new BytesRef(bytes, starts[t], lengths[t]);
    }
    return terms;
  }

  /** The positions of each term of {@link #terms}, ascending as they were added. */
  int[][] positions() {
    int[][] result = new int[count][];
    for (int t = 0; t < count; t++) {
      int[] p = positions[t];
      result[t] = p.length == freqs[t] ? p : Arrays.copyOf(p, freqs[t]);
    }
    return result;
  }
}
