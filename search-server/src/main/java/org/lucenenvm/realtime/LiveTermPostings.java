package org.lucenenvm.realtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.Impact;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.RamUsageEstimator;
import org.apache.lucene.util.StringHelper;

/**
 * The terms and postings of one field of a {@link LiveSegment}, in parallel arrays indexed by term
 * id and in {@link LiveBytePool} slices, with no object per term.
 *
 * <p><b>Layout.</b> Per term four columns of the term table, 24 bytes: a {@code long} key, the
 * {@code long} state ({@code count << 32 | lastDoc}), a term address and the writer's cursor. A
 * term of at most {@value #INLINE_BYTES} bytes is held in its key whole (its bytes,
 * little-endian, below its length in the top byte), a longer one by its first {@value
 * #INLINE_BYTES} bytes below {@code 0xFF}. A longer term also has a pool record, at its term
 * address: the length (one byte below 128, else two bytes with the high bit of the first set) and
 * the term's bytes, right before the first slice of its postings. An inline term's term address
 * is its first slice, which stands alone and is allocated with its first posting that needs one:
 * while an inline term has one posting of freq 1 (any posting, in a docs-only field) the posting
 * is held in the table, the doc as the state's last doc and the position as the term address
 * {@code ~position} ({@code ~0} without positions; negative, unlike an address). Most terms of a
 * segment occur once, and so take no slice. The second posting moves the first one into a new
 * slice and release-stores the slice's address before the state that counts it. Postings:
 * one slice chain per term ({@link LiveSlices}) in the format {@link LivePostingCursor} decodes.
 * Every {@value #BLOCK} postings the writer seals a block and appends a summary of {@value
 * #SUMMARY_INTS} ints to the term's summary array (kept by term id in {@link
 * LiveBlockSummaries}, as most terms never fill a block): last doc, address/data end/level where the
 * next block starts, cumulative total term freq, the address of the block's fixed-width copy, and
 * the block's competitive impacts: their count, then up to {@value #IMPACT_PAIRS} (freq, norm)
 * pairs (the norm as two ints), ascending in freq and in unsigned norm as Lucene orders impacts.
 * They are the block's competitive pairs ({@link CompetitiveImpactAccumulator}); where there are
 * more, consecutive pairs are merged into one that dominates them (the higher freq, the lower
 * norm), so every pair stays an upper bound. Terms are found through an
 * open-addressing table (linear probing, at most three quarters full) whose slots hold the top
 * {@value #TAG_BITS} bits of the term's hash above {@code id + 1} (murmur3's 64-bit finalizer of
 * an inline term's key, murmur3 of a long term's bytes): a probe compares that tag, then the
 * term's key, and reads the pool only for a long term whose key matched. A lookup of an inline
 * term so touches one slot and one key, not the pool (in an ingest, where most of a document's
 * terms are rare and cold in cache, this halves the cost of finding them), and a rehash reads
 * neither.
 *
 * <p><b>Sealed blocks.</b> When it seals a block the writer also writes the block's docs and freqs
 * once more in fixed width ({@link LiveSealedBlock}), which readers that need no positions decode
 * instead of the vInts.
 *
 * <p><b>Memory model</b> (one writer, any number of readers, no locks). A term's state is one
 * {@code long} ({@code count << 32 | lastDoc}) the writer stores with release semantics after it
 * wrote the posting's bytes, its summary and any grown array; a reader loads it with acquire
 * semantics and so sees every byte of the first {@code count} postings and the term address that
 * leads to them. Grown arrays (term table, hash slots, a term's summaries) are complete copies
 * published by a volatile or release store.
 * A reader of a snapshot of {@code maxDoc} docs never decodes a term's <em>last</em> counted
 * posting unless its doc is below {@code maxDoc}: that posting may belong to a document being
 * added, whose bytes a failed add rolls back and overwrites. Every other counted posting belongs
 * to a published document and never changes, so a reader cannot see a torn posting or block.
 *
 * <p><b>Failed adds.</b> The writer journals the state, term address and write cursor of every
 * term a document touches, and where its writes first left a slice; {@link #rollback} erases the
 * bytes written after the journaled cursor (restoring the slice's end marker, see {@link
 * LiveSlices}) and release-stores the old state, then the old term address. So a document that
 * failed half-way leaves no posting behind and the next document reuses its doc id and bytes (not
 * those of a slice or a block allocated for it, which stay unused in the pool). A reader that
 * loaded a state counting such a posting may then load a term address restored to an inline
 * posting; it loads both again ({@link LivePostingList}).
 */
final class LiveTermPostings {
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

  private static final VarHandle STATES = MethodHandles.arrayElementVarHandle(long[].class);
  /** Release and acquire on hash slots and term addresses. */
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final int TAG_BITS = 8;
  /** Terms up to this many bytes are held whole in their key (no bytes in the pool). */
  static final int INLINE_BYTES = 7;
  /** The top byte of the key of a term longer than {@link #INLINE_BYTES}. */
  private static final int LONG_TERM = 0xFF;
  private static final int ID_MASK = -1 >>> TAG_BITS;
  /** Terms one field of a live segment can hold: ids (plus one) fit below the slot's tag. */
  static final int MAX_TERMS = ID_MASK - 1;

  private final LiveBytePool pool;
  private final LiveField field;
  private final boolean withPositions;

  /** Per-term arrays; replaced as a whole when they grow. */
  private static final class Table {
    /** Inline term or long-term prefix (see the class documentation). */
    final long[] key;
    /**
     * Address of the pool record of a long term; of the first slice of an inline term, or {@code
     * ~position} of its one posting held here (see the class documentation).
     */
    final int[] termAddress;
    final long[] state;
    /** Where the writer writes the term's next posting byte (meaningless while it has no slice). */
    final int[] cursor;

    Table(int size) {
      key = new long[size];
      termAddress = new int[size];
      state = new long[size];
      cursor = new int[size];
    }

    int size() {
      return state.length;
    }

    Table grow(int minSize, int used) {
      Table t = new Table(ArrayUtil.oversize(minSize, Long.BYTES));
      System.arraycopy(key, 0, t.key, 0, used);
      System.arraycopy(termAddress, 0, t.termAddress, 0, used);
      System.arraycopy(state, 0, t.state, 0, used);
      System.arraycopy(cursor, 0, t.cursor, 0, used);
      return t;
    }

    static long bytesPerTerm() {
      return 2 * Integer.BYTES + 2 * Long.BYTES;
    }
  }

  private volatile Table table = new Table(16);
  private volatile int[] slots = new int[32];
  private volatile int termCount;
  private final LiveBlockSummaries blockSummaries = new LiveBlockSummaries();
  private long summaryBytes;
  /** The docs and freqs of the block being sealed. */
  private final int[] sealDocs = new int[BLOCK];
  private final int[] sealFreqs = new int[BLOCK];
  private final CompetitiveImpactAccumulator sealImpacts = new CompetitiveImpactAccumulator();

  /** Where the term being added writes its next byte. */
  private int writeCursor;

  /**
   * Journal of the current document: touched term ids, what to restore, and where the writes to
   * the term's slice chain first crossed into a new slice (the overwritten end marker's address,
   * or -1) with that marker.
   */
  private int[] touched = new int[16];
  private long[] savedState = new long[16];
  private int[] savedTermAddress = new int[16];
  private int[] savedCursor = new int[16];
  private int[] crossedAt = new int[16];
  private byte[] crossedMarker = new byte[16];
  private int touchedCount;

  LiveTermPostings(LiveBytePool pool, LiveField field) {
    this.pool = pool;
    this.field = field;
    this.withPositions = field.hasPositions();
  }

  boolean withPositions() {
    return withPositions;
  }

  LiveField field() {
    return field;
  }

  // ---------------------------------------------------------------- writer

  /**
   * Appends the posting of {@code doc} for {@code term} with the first {@code freq} entries of
   * {@code positions} (ignored for docs-only fields). Throws {@link IllegalArgumentException} on a
   * term or positions Lucene would refuse; the caller then {@link #rollback rolls back} the doc.
   * Returns the term's id.
   */
  int add(BytesRef term, int doc, int[] positions, int freq) {
    if (term.length > IndexWriter.MAX_TERM_LENGTH) {
      throw new IllegalArgumentException(
          "term of " + term.length + " bytes in field '" + field.name + "' exceeds "
              + IndexWriter.MAX_TERM_LENGTH);
    }
    if (withPositions) {
      checkPositions(term, positions, freq);
    }
    long key = key(term);
    int hash = hash(term, key);
    int id = probe(term, hash, key);
    if (id < 0) {
      id = insert(term, hash, key, -id - 1);
    }
    Table t = table;
    long state = t.state[id];
    int count = (int) (state >>> 32);
    int lastDoc = count == 0 ? -1 : (int) state;
    if (doc <= lastDoc) {
      throw new IllegalArgumentException(
          "term '" + term.utf8ToString() + "' added twice to doc " + doc + " of field '"
              + field.name + "'");
    }
    journal(t, id);
    if (count == 0 && isInline(key) && (!withPositions || freq == 1)) {
      INTS.setRelease(t.termAddress, id, ~(withPositions ? positions[0] : 0));
    } else {
      writeCursor = t.cursor[id];
      try {
        startWriting(t, id, count, lastDoc);
        writePosting(doc - lastDoc, positions, freq);
      } finally {
        t.cursor[id] = writeCursor;
      }
    }
    count++;
    if (count % BLOCK == 0) {
      seal(id, count / BLOCK - 1, doc);
    }
    STATES.setRelease(table.state, id, (long) count << 32 | doc);
    return id;
  }

  /**
   * Points {@link #writeCursor} where term {@code id}'s next posting goes: a new first slice for an
   * inline term without one, into which a posting held inline moves first; else the cursor as is.
   */
  private void startWriting(Table t, int id, int count, int lastDoc) {
    int address = t.termAddress[id];
    boolean inlinePosting = count == 1 && address < 0;
    if (count == 0 && isInline(t.key[id]) || inlinePosting) {
      int start = LiveSlices.allocate(pool, 0);
      writeCursor = start;
      if (inlinePosting && withPositions) {
        writeVInt((lastDoc + 1) << 1 | 1);
        writeVInt(~address);
      } else if (inlinePosting) {
        writeVInt(lastDoc + 1);
      }
      INTS.setRelease(t.termAddress, id, start);
    }
  }

  /** Writes one posting at {@link #writeCursor}: the doc delta, freq and positions. */
  private void writePosting(int delta, int[] positions, int freq) {
    if (withPositions) {
      writeVInt(delta << 1 | (freq == 1 ? 1 : 0));
      if (freq > 1) {
        writeVInt(freq);
        writeVInt(positionBytes(positions, freq));
      }
      int previous = 0;
      for (int i = 0; i < freq; i++) {
        writeVInt(positions[i] - previous);
        previous = positions[i];
      }
    } else {
      writeVInt(delta);
    }
  }

  private static int positionBytes(int[] positions, int freq) {
    int bytes = 0;
    int previous = 0;
    for (int i = 0; i < freq; i++) {
      bytes += LivePostingCursor.vIntBytes(positions[i] - previous);
      previous = positions[i];
    }
    return bytes;
  }

  private void checkPositions(BytesRef term, int[] positions, int freq) {
    if (freq < 1 || positions.length < freq) {
      throw new IllegalArgumentException(
          "term '" + term.utf8ToString() + "' of field '" + field.name + "' has freq " + freq
              + " with " + positions.length + " positions");
    }
    int previous = 0;
    for (int i = 0; i < freq; i++) {
      if (positions[i] < previous) {
        throw new IllegalArgumentException(
            "positions of term '" + term.utf8ToString() + "' in field '" + field.name
                + "' are not ascending and non-negative: " + positions[i] + " after " + previous);
      }
      previous = positions[i];
    }
  }

  /** Forgets the journal: the document was published. */
  void commit() {
    touchedCount = 0;
  }

  /**
   * Restores every term the current document touched (newest first): erases what it wrote into a
   * slice that held postings before, then release-stores the old state and term address.
   */
  void rollback() {
    Table t = table;
    for (int i = touchedCount - 1; i >= 0; i--) {
      int id = touched[i];
      long state = savedState[i];
      int address = savedTermAddress[i];
      if (!isInline(t.key[id]) || (state >>> 32) > 0 && address >= 0) {
        erase(savedCursor[i], crossedAt[i] < 0 ? t.cursor[id] : crossedAt[i]);
        if (crossedAt[i] >= 0) {
          pool.slab(crossedAt[i])[crossedAt[i] & LiveBytePool.SLAB_MASK] = crossedMarker[i];
        }
      } // else the slice it wrote (if any) is new and stays unused
      t.cursor[id] = savedCursor[i];
      STATES.setRelease(t.state, id, state);
      INTS.setRelease(t.termAddress, id, address);
    }
    touchedCount = 0;
  }

  /** Zeroes the bytes {@code [from, to)} of one slice. */
  private void erase(int from, int to) {
    int o = from & LiveBytePool.SLAB_MASK;
    Arrays.fill(pool.slab(from), o, o + (to - from), (byte) 0);
  }

  private void journal(Table t, int id) {
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

  private void writeVInt(int value) {
    while ((value & ~0x7F) != 0) {
      writeByte((byte) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    writeByte((byte) value);
  }

  private void writeByte(byte b) {
    int c = writeCursor;
    byte[] slab = pool.slab(c);
    byte marker = slab[c & LiveBytePool.SLAB_MASK];
    if (marker != 0) { // the slice is full: continue in the next one
      int next = LiveSlices.allocate(pool, LiveSlices.nextLevel(LiveSlices.level(marker)));
      int entry = touchedCount - 1;
      if (crossedAt[entry] < 0) {
        crossedAt[entry] = c;
        crossedMarker[entry] = marker;
      }
      LiveSlices.writePointer(pool, c, next);
      c = next;
      slab = pool.slab(c);
    }
    slab[c & LiveBytePool.SLAB_MASK] = b;
    writeCursor = c + 1;
  }

  /** Writes the summary of block {@code block}, which ends with {@code lastDoc}. */
  private void seal(int id, int block, int lastDoc) {
    Table t = table;
    int[] previous = blockSummaries.get(id);
    LivePostingCursor decoder = new LivePostingCursor(pool.slabs(), withPositions);
    decoder.resetToBlock(previous, block - 1, start(id));
    long sumFreq = block == 0 ? 0 : previous[(block - 1) * SUMMARY_INTS + TOTAL_TERM_FREQ];
    int previousDoc = block == 0 ? -1 : previous[(block - 1) * SUMMARY_INTS + LAST_DOC];
    decoder.decode(sealDocs, sealFreqs, BLOCK);
    sealImpacts.clear();
    for (int i = 0; i < BLOCK; i++) {
      sumFreq += sealFreqs[i];
      sealImpacts.add(sealFreqs[i], field.normOrOne(sealDocs[i]));
    }
    int[] summaries = previous;
    int offset = block * SUMMARY_INTS;
    if (summaries == null || summaries.length < offset + SUMMARY_INTS) {
      summaries =
          summaries == null
              ? new int[SUMMARY_INTS * 2]
              : ArrayUtil.growExact(summaries, summaries.length * 2);
      summaryBytes +=
          RamUsageEstimator.sizeOf(summaries)
              - (previous == null ? 0 : RamUsageEstimator.sizeOf(previous));
    }
    int next = t.cursor[id];
    int dataEnd = LiveSlices.dataEnd(pool, next);
    summaries[offset + LAST_DOC] = lastDoc;
    summaries[offset + NEXT_ADDRESS] = next;
    summaries[offset + NEXT_DATA_END] = dataEnd;
    summaries[offset + NEXT_LEVEL] =
        LiveSlices.level(pool.slab(dataEnd)[dataEnd & LiveBytePool.SLAB_MASK]);
    summaries[offset + TOTAL_TERM_FREQ] = Math.toIntExact(sumFreq);
    summaries[offset + SEALED_ADDRESS] =
        LiveSealedBlock.write(pool, previousDoc, sealDocs, sealFreqs);
    writeImpacts(sealImpacts.getCompetitiveFreqNormPairs(), summaries, offset);
    blockSummaries.put(id, summaries);
  }

  /**
   * Writes {@code competitive} (ascending) as at most {@value #IMPACT_PAIRS} pairs into the summary
   * at {@code offset}: the pairs split into that many runs of consecutive pairs, each run written
   * as its last freq (the highest) with its first norm (the lowest).
   */
  private static void writeImpacts(List<Impact> competitive, int[] summaries, int offset) {
    int pairs = competitive.size();
    int count = Math.min(IMPACT_PAIRS, pairs);
    summaries[offset + IMPACT_COUNT] = count;
    for (int run = 0; run < count; run++) {
      long norm = competitive.get(run * pairs / count).norm;
      int at = offset + IMPACTS + 3 * run;
      summaries[at] = competitive.get((run + 1) * pairs / count - 1).freq;
      summaries[at + 1] = (int) (norm >>> 32);
      summaries[at + 2] = (int) norm;
    }
  }

  /** Adds {@code term} as a new term whose slot would be {@code freeSlot} in the current slots. */
  private int insert(BytesRef term, int hash, long key, int freeSlot) {
    int id = termCount;
    if (id == MAX_TERMS) {
      throw new IllegalArgumentException(
          "field '" + field.name + "' of a live segment holds " + MAX_TERMS
              + " terms already; use a smaller segment size");
    }
    Table t = table;
    if (id == t.size()) {
      t = t.grow(id + 1, id);
      table = t;
    }
    if (!isInline(key)) { // its record, then its first slice (an inline term's comes with a posting)
      int lengthBytes = term.length < 0x80 ? 1 : 2;
      int address = pool.allocate(lengthBytes + term.length + LiveSlices.size(0));
      byte[] slab = pool.slab(address);
      int o = address & LiveBytePool.SLAB_MASK;
      if (lengthBytes == 1) {
        slab[o] = (byte) term.length;
      } else {
        slab[o] = (byte) (0x80 | term.length >>> 8);
        slab[o + 1] = (byte) term.length;
      }
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
    INTS.setRelease(s, slot, slot(hash, id));
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
      int hash = isInline(key) ? mix(key) : hash(term(id, scratch), key);
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
    return isInline(key)
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

  /** The key of {@code term} (see the class documentation). */
  private static long key(BytesRef term) {
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

  /** Bytes held by the per-term arrays, hash slots and summaries (slices are in the pool). */
  long ramBytesUsed() {
    return table.size() * Table.bytesPerTerm()
        + (long) slots.length * Integer.BYTES
        + summaryBytes
        + blockSummaries.ramBytesUsed()
        + (long) touched.length * (4 * Integer.BYTES + Long.BYTES + 1);
  }

  // ---------------------------------------------------------------- readers

  /** Terms ever added (some may have no posting below a given snapshot). */
  int termCount() {
    return termCount;
  }

  /** The id of {@code term}, or -1. Safe for readers. */
  int find(BytesRef term) {
    long key = key(term);
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
      int v = (int) INTS.getAcquire(s, slot);
      if (v == 0) {
        return -slot - 1;
      }
      if ((v & ~ID_MASK) == tag) {
        int id = (v & ID_MASK) - 1;
        Table t = table; // after the acquire: holds id
        if (t.key[id] == key && (isInline(key) || termEquals(t.termAddress[id], term))) {
          return id;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private boolean termEquals(int address, BytesRef term) {
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    int length = slab[o];
    if (length >= 0) {
      o++;
    } else {
      length = (length & 0x7F) << 8 | (slab[o + 1] & 0xFF);
      o += 2;
    }
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
   * into.bytes} when that is an array of {@value #INLINE_BYTES} bytes (as an earlier call leaves
   * it), else into a new one.
   */
  BytesRef termAt(long key, int address, BytesRef into) {
    if (!isInline(key)) {
      byte[] slab = pool.slab(address);
      int o = address & LiveBytePool.SLAB_MASK;
      int length = slab[o];
      if (length >= 0) {
        into.offset = o + 1;
      } else {
        length = (length & 0x7F) << 8 | (slab[o + 1] & 0xFF);
        into.offset = o + 2;
      }
      into.bytes = slab;
      into.length = length;
      return into;
    }
    byte[] bytes = into.bytes.length == INLINE_BYTES ? into.bytes : new byte[INLINE_BYTES];
    int length = (int) (key >>> 56);
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
    if (isInline(key)) {
      return k < (int) (key >>> 56) ? (int) (key >>> (k << 3)) & 0xFF : -1;
    }
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    int length = slab[o];
    if (length >= 0) {
      o++;
    } else {
      length = (length & 0x7F) << 8 | (slab[o + 1] & 0xFF);
      o += 2;
    }
    return k < length ? slab[o + k] & 0xFF : -1;
  }

  /**
   * Address of the first slice of term {@code id} (right after a long term's bytes), or {@code
   * ~position} while the term's one posting is held inline (see the class documentation). Load
   * after {@link #state}.
   */
  int start(int id) {
    Table t = table;
    int address = (int) INTS.getAcquire(t.termAddress, id);
    if (isInline(t.key[id])) {
      return address;
    }
    byte[] slab = pool.slab(address);
    int o = address & LiveBytePool.SLAB_MASK;
    int length = slab[o];
    int header = 1;
    if (length < 0) {
      length = (length & 0x7F) << 8 | (slab[o + 1] & 0xFF);
      header = 2;
    }
    return address + header + length;
  }

  /** {@code count << 32 | lastDoc} of term {@code id}, with acquire semantics. */
  long state(int id) {
    return (long) STATES.getAcquire(table.state, id);
  }

  /** Block summaries of term {@code id} (load after {@link #state}), or null. */
  int[] summaries(int id) {
    return blockSummaries.get(id);
  }

  byte[][] slabs() {
    return pool.slabs();
  }
}
