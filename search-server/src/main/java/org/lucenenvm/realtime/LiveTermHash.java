package org.lucenenvm.realtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;

/**
 * The terms of one field of a {@link LiveSegment} and their per-term state, in parallel arrays
 * indexed by term id, with no object per term; what the readers of the field's postings look up.
 * {@link LiveTermPostings} adds terms and writes the state, in the layout of {@link
 * LiveBlockLayout}.
 *
 * <p><b>Layout.</b> Per term four columns of the term {@link Table}, 24 bytes: a {@code long} key
 * (the term inline, or a long term's prefix), the {@code long} state ({@code count << 32 |
 * lastDoc}), a term address (a long term's pool record; an inline term's first slice, or {@code
 * ~position} of its one posting held here) and the writer's cursor. Terms are found through an
 * open-addressing table (linear probing, at most three quarters full) whose slots hold the top
 * {@value #TAG_BITS} bits of the term's hash above {@code id + 1} (murmur3's 64-bit finalizer of
 * an inline term's key, murmur3 of a long term's bytes): a probe compares that tag, then the
 * term's key, and reads the pool only for a long term whose key matched. A lookup of an inline
 * term so touches one slot and one key, not the pool (in an ingest, where most of a document's
 * terms are rare and cold in cache, this halves the cost of finding them), and a rehash reads
 * neither.
 *
 * <p><b>Memory model</b> (one writer, any number of readers, no locks). A term's state is one
 * {@code long} ({@code count << 32 | lastDoc}) the writer stores with release semantics after it
 * wrote the posting's bytes, its summary and any grown array; a reader loads it with acquire
 * semantics and so sees every byte of the first {@code count} postings and the term address that
 * leads to them. Grown arrays (term table, hash slots, a term's summaries) are complete copies
 * published by a volatile or release store; a slot is release-stored after its term's key and
 * record, and a reader loads the table after the slot that named the id. A reader of a snapshot
 * of {@code maxDoc} docs never decodes a term's <em>last</em> counted posting unless its doc is
 * below {@code maxDoc}: that posting may belong to a document being added, whose bytes a failed
 * add rolls back and overwrites ({@link LiveAddJournal}). Every other counted posting belongs to a
 * published document and never changes, so a reader cannot see a torn posting or block.
 */
final class LiveTermHash {
  /** Release and acquire on hash slots. */
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final int TAG_BITS = 8;
  private static final int ID_MASK = -1 >>> TAG_BITS;
  /** Terms one field of a live segment can hold: ids (plus one) fit below the slot's tag. */
  static final int MAX_TERMS = ID_MASK - 1;

  /** Per-term arrays; replaced as a whole when they grow. */
  static final class Table {
    private static final VarHandle STATES = MethodHandles.arrayElementVarHandle(long[].class);
    /** Release and acquire on term addresses. */
    private static final VarHandle ADDRESSES = MethodHandles.arrayElementVarHandle(int[].class);

    /** Inline term or long-term prefix ({@link LiveBlockLayout#key}). */
    final long[] key;
    /**
     * Address of the pool record of a long term; of the first slice of an inline term, or {@code
     * ~position} of its one posting held here (see {@link LiveBlockLayout}).
     */
    final int[] termAddress;
    /** {@code count << 32 | lastDoc}; stored with release semantics. */
    final long[] state;
    /** Where the writer writes the term's next posting byte (meaningless while it has no slice). */
    final int[] cursor;

    private Table(int size) {
      key = new long[size];
      termAddress = new int[size];
      state = new long[size];
      cursor = new int[size];
    }

    int size() {
      return state.length;
    }

    private Table grow(int minSize, int used) {
      Table t = new Table(ArrayUtil.oversize(minSize, Long.BYTES));
      System.arraycopy(key, 0, t.key, 0, used);
      System.arraycopy(termAddress, 0, t.termAddress, 0, used);
      System.arraycopy(state, 0, t.state, 0, used);
      System.arraycopy(cursor, 0, t.cursor, 0, used);
      return t;
    }

    private static long bytesPerTerm() {
      return 2 * Integer.BYTES + 2 * Long.BYTES;
    }

    /** Stores term {@code id}'s state with release semantics (writer only). */
    void releaseState(int id, long value) {
      STATES.setRelease(state, id, value);
    }

    /** Stores term {@code id}'s term address with release semantics (writer only). */
    void releaseTermAddress(int id, int address) {
      ADDRESSES.setRelease(termAddress, id, address);
    }

    long acquireState(int id) {
      return (long) STATES.getAcquire(state, id);
    }

    int acquireTermAddress(int id) {
      return (int) ADDRESSES.getAcquire(termAddress, id);
    }
  }

  private final LiveBytePool pool;
  private final String fieldName;
  private volatile Table table = new Table(16);
  private volatile int[] slots = new int[32];
  private volatile int termCount;

  LiveTermHash(LiveBytePool pool, String fieldName) {
    this.pool = pool;
    this.fieldName = fieldName;
  }

  /** The current term table (the writer's; grown only by {@link #findOrAdd}). */
  Table table() {
    return table;
  }

  // ---------------------------------------------------------------- writer

  /**
   * The id of {@code term}, which is added when absent: its key, and for a long term its pool
   * record and first slice (an inline term's first slice comes with a posting). Writer only.
   */
  int findOrAdd(BytesRef term) {
    long key = LiveBlockLayout.key(term);
    int hash = hash(term, key);
    int id = probe(term, hash, key);
    return id >= 0 ? id : insert(term, hash, key, -id - 1);
  }

  /** Adds {@code term} as a new term whose slot would be {@code freeSlot} in the current slots. */
  private int insert(BytesRef term, int hash, long key, int freeSlot) {
    int id = termCount;
    if (id == MAX_TERMS) {
      throw new IllegalArgumentException(
          "field '" + fieldName + "' of a live segment holds " + MAX_TERMS
              + " terms already; use a smaller segment size");
    }
    Table t = table;
    if (id == t.size()) {
      t = t.grow(id + 1, id);
      table = t;
    }
    if (!LiveBlockLayout.isInline(key)) {
      int lengthBytes = LiveBlockLayout.lengthBytes(term.length);
      int address = pool.allocate(lengthBytes + term.length + LiveSlices.size(0));
      byte[] slab = pool.slab(address);
      int o = address & LiveBytePool.SLAB_MASK;
      LiveBlockLayout.writeRecordLength(slab, o, term.length);
      System.arraycopy(term.bytes, term.offset, slab, o + lengthBytes, term.length);
      int start = address + lengthBytes + term.length;
      LiveSlices.markEnd(pool, start, 0);
      t.termAddress[id] = address;
      t.cursor[id] = start;
    }
    t.key[id] = key;
    termCount = id + 1;
    int[] s = slots;
    int slot = freeSlot;
    if ((id + 1) * 4L > s.length * 3L) {
      s = rehash(s.length * 2, id);
      slots = s;
      slot = freeSlot(s, hash);
    }
    SLOTS.setRelease(s, slot, slot(hash, id));
    return id;
  }

  private static int slot(int hash, int id) {
    return (hash & ~ID_MASK) | (id + 1);
  }

  private int[] rehash(int size, int count) {
    int[] s = new int[size];
    Table t = table;
    BytesRef scratch = new BytesRef();
    for (int id = 0; id < count; id++) {
      long key = t.key[id];
      int hash = LiveBlockLayout.isInline(key) ? mix(key) : hash(term(id, scratch), key);
      s[freeSlot(s, hash)] = slot(hash, id);
    }
    return s;
  }

  private static int freeSlot(int[] s, int hash) {
    int mask = s.length - 1;
    int slot = hash & mask;
    while (s[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /**
   * The hash of {@code term} whose key is {@code key}: the key's bits mixed for an inline term (so
   * a rehash needs no term bytes), murmur3 of the bytes for a long one.
   */
  private static int hash(BytesRef term, long key) {
    return LiveBlockLayout.isInline(key)
        ? mix(key)
        : StringHelper.murmurhash3_x86_32(term, StringHelper.GOOD_FAST_HASH_SEED);
  }

  /** murmur3's 64-bit finalizer: every bit of the key moves every bit of the hash. */
  private static int mix(long key) {
    long h = key;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h;
  }

  /** Bytes held by the term table and the hash slots (term records are in the pool). */
  long ramBytesUsed() {
    return table.size() * Table.bytesPerTerm() + (long) slots.length * Integer.BYTES;
  }

  // ---------------------------------------------------------------- readers

  /** Terms ever added (some may have no posting below a given snapshot). */
  int termCount() {
    return termCount;
  }

  /** The id of {@code term}, or -1. Safe for readers. */
  int find(BytesRef term) {
    long key = LiveBlockLayout.key(term);
    int id = probe(term, hash(term, key), key);
    return id < 0 ? -1 : id;
  }

  /** The id of {@code term}, or {@code -(slot + 1)} of the empty slot that ended the probe. */
  private int probe(BytesRef term, int hash, long key) {
    int[] s = slots;
    int mask = s.length - 1;
    int slot = hash & mask;
    int tag = hash & ~ID_MASK;
    while (true) {
      int v = (int) SLOTS.getAcquire(s, slot);
      if (v == 0) {
        return -slot - 1;
      }
      if ((v & ~ID_MASK) == tag) {
        int id = (v & ID_MASK) - 1;
        Table t = table; // after the acquire: holds id
        if (t.key[id] == key
            && (LiveBlockLayout.isInline(key) || termEquals(t.termAddress[id], term))) {
          return id;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private boolean termEquals(int address, BytesRef term) {
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    int length = LiveBlockLayout.recordLength(slab, o);
    o += LiveBlockLayout.lengthBytes(length);
    return length == term.length
        && Arrays.equals(
            slab, o, o + length, term.bytes, term.offset, term.offset + term.length);
  }

  /** The bytes of term {@code id} (do not modify: a long term's point into the pool). */
  BytesRef term(int id) {
    return term(id, new BytesRef());
  }

  /** Points {@code into} at the bytes of term {@code id} (see {@link #termAt}) and returns it. */
  BytesRef term(int id, BytesRef into) {
    Table t = table;
    return termAt(t.key[id], t.termAddress[id], into);
  }

  /** The key of term {@code id} (with {@link #termAddress}, what {@link #termAt} reads). */
  long key(int id) {
    return table.key[id];
  }

  /** The pool address of term {@code id}'s record or first slice (see {@link #termAt}). */
  int termAddress(int id) {
    return table.termAddress[id];
  }

  /**
   * Points {@code into} at the bytes of the term of {@code key} and {@code address} and returns it:
   * a long term's record in the pool (do not modify), an inline term decoded into {@code
   * into.bytes} when that is an array of {@value LiveBlockLayout#INLINE_BYTES} bytes (as an earlier
   * call leaves it), else into a new one.
   */
  BytesRef termAt(long key, int address, BytesRef into) {
    if (!LiveBlockLayout.isInline(key)) {
      byte[] slab = pool.slab(address);
      int o = address & LiveBytePool.SLAB_MASK;
      int length = LiveBlockLayout.recordLength(slab, o);
      into.bytes = slab;
      into.offset = o + LiveBlockLayout.lengthBytes(length);
      into.length = length;
      return into;
    }
    byte[] bytes =
        into.bytes.length == LiveBlockLayout.INLINE_BYTES
            ? into.bytes
            : new byte[LiveBlockLayout.INLINE_BYTES];
    int length = LiveBlockLayout.inlineLength(key);
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (key >>> (i << 3));
    }
    into.bytes = bytes;
    into.offset = 0;
    into.length = length;
    return into;
  }

  /**
   * Byte {@code k} (unsigned) of the term of {@code key} and {@code address} (as {@link #termAt}
   * reads it), or -1 past its end: what a radix sort of the terms compares.
   */
  int byteAt(long key, int address, int k) {
    if (LiveBlockLayout.isInline(key)) {
      return k < LiveBlockLayout.inlineLength(key) ? (int) (key >>> (k << 3)) & 0xFF : -1;
    }
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    int length = LiveBlockLayout.recordLength(slab, o);
    o += LiveBlockLayout.lengthBytes(length);
    return k < length ? slab[o + k] & 0xFF : -1;
  }

  /**
   * Address of the first slice of term {@code id} (right after a long term's bytes), or {@code
   * ~position} while the term's one posting is held inline (see {@link LiveBlockLayout}). Load
   * after {@link #state}.
   */
  int start(int id) {
    Table t = table;
    int address = t.acquireTermAddress(id);
    if (LiveBlockLayout.isInline(t.key[id])) {
      return address;
    }
    byte[] slab = pool.slab(address);
    int length = LiveBlockLayout.recordLength(slab, address & LiveBytePool.SLAB_MASK);
    return address + LiveBlockLayout.lengthBytes(length) + length;
  }

  /** {@code count << 32 | lastDoc} of term {@code id}, with acquire semantics. */
  long state(int id) {
    return table.acquireState(id);
  }

  byte[][] slabs() {
    return pool.slabs();
  }
}
