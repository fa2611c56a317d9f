package org.lucenenvm.realtime;

import static org.lucenenvm.realtime.LiveBlockLayout.BLOCK;

import org.apache.lucene.index.FreqAndNormBuffer;

/**
 * One term's postings as a snapshot of {@code maxDoc} documents sees them: how many postings are
 * visible and how many whole blocks (with their summaries) they span; the total term freq and the
 * competitive impact of the trailing partial block are decoded on first use (a flush, which only
 * iterates the postings, never pays for them), or right away when the lookup decoded that block
 * anyway (a term of a document being added, whose last posting it must not count). Built once per term lookup from the term's acquired
 * state (see {@link LiveTermHash} for why it never reads a torn posting); used by one thread,
 * like the enum that made it.
 */
final class LivePostingList {
  private final LiveField field;
  private final byte[][] slabs;
  /** Address of the term's first slice, or {@code ~position} of its one posting held inline. */
  private final int start;
  /** The doc of the one posting held inline (when {@link #start} is negative). */
  private final int inlineDoc;
  /** Block summaries (null when no block is sealed). */
  private final int[] summaries;
  /** Whole blocks below {@link #size}, each with a summary. */
  private final int blocks;
  /** Visible postings (the doc freq). */
  private final int size;

  /** The statistics of the postings after the last whole block, or null until first needed. */
  private Tail tail;

  private LivePostingList(
      LiveField field,
      byte[][] slabs,
      int start,
      int inlineDoc,
      int[] summaries,
      int size) {
    this.field = field;
    this.slabs = slabs;
    this.start = start;
    this.inlineDoc = inlineDoc;
    this.summaries = summaries;
    this.size = size;
    this.blocks = size / BLOCK;
  }

  /** Whether term {@code id} has a posting below {@code maxDoc} (cheap unless it is being added). */
  static boolean visible(LiveField field, int id, int maxDoc) {
    long state = field.terms.state(id);
    if ((int) (state >>> 32) == 0) {
      return false;
    }
    return (int) state < maxDoc || of(field, id, maxDoc) != null;
  }

  /** The postings of term {@code id} below {@code maxDoc}, or null when none is visible. */
  static LivePostingList of(LiveField field, int id, int maxDoc) {
    LiveTermHash terms = field.terms;
    long state;
    int count;
    int start;
    do {
      state = terms.state(id);
      count = (int) (state >>> 32);
      if (count == 0) {
        return null;
      }
      start = terms.start(id);
      // An inline posting with more counted: a failed add that had moved it into a slice was
      // rolled back meanwhile, and the state no longer holds the posting's doc. Load both again.
    } while (start < 0 && count > 1);
    int lastDoc = (int) state;
    int[] summaries = count >= BLOCK ? field.blockSummaries.get(id) : null;
    byte[][] slabs = terms.slabs();
    if (lastDoc < maxDoc) {
      return new LivePostingList(field, slabs, start, lastDoc, summaries, count);
    }
    // The last counted posting may be a document still being added: never decode it. The
    // postings decoded to find the visible ones are the tail's when they end inside a block.
    int stable = count - 1;
    if (stable == 0) {
      return null;
    }
    LivePostingCursor cursor = new LivePostingCursor(slabs, field.hasPositions());
    int block = firstBlockReaching(summaries, stable / BLOCK, maxDoc);
    cursor.resetToBlock(summaries, block - 1, start);
    int size = block * BLOCK;
    int limit = Math.min(stable, size + BLOCK);
    Tail tail = new Tail(summaries, block, limit - size);
    while (size < limit) {
      int doc = cursor.next();
      if (doc >= maxDoc) {
        break;
      }
      tail.add(doc, cursor.freq(), field);
      size++;
    }
    if (size == 0) {
      return null;
    }
    LivePostingList list = new LivePostingList(field, slabs, start, lastDoc, summaries, size);
    if (size / BLOCK == block) {
      list.tail = tail.finish();
    }
    return list;
  }

  /**
   * A list of the same postings for another enum (this one's thread handed it over, as a {@link
   * org.apache.lucene.index.TermState} is), with the tail's statistics if this one scanned them.
   */
  LivePostingList copy() {
    LivePostingList c = new LivePostingList(field, slabs, start, inlineDoc, summaries, size);
    c.tail = tail;
    return c;
  }

  /** The tail's statistics, decoding its postings on first use. */
  private Tail tail() {
    if (tail == null) {
      LivePostingCursor cursor = new LivePostingCursor(slabs, field.hasPositions());
      positionAtBlock(cursor, blocks - 1);
      Tail t = new Tail(summaries, blocks, size - blocks * BLOCK);
      for (int i = blocks * BLOCK; i < size; i++) {
        int doc = cursor.next();
        t.add(doc, cursor.freq(), field);
      }
      tail = t.finish();
    }
    return tail;
  }

  /**
   * The postings after a list's last whole block, as decoded once, and their statistics: the
   * list's total term freq and the tail's competitive impact. Complete (and no longer changed) once
   * {@link #finish}ed.
   */
  private static final class Tail {
    private long totalTermFreq;
    private int maxFreq;
    private long minNorm = -1L;
    private final int[] docs;
    private final int[] freqs;
    private int count;

    /**
     * Starts after whole block {@code blocks - 1}, whose summary holds the freqs before, for at
     * most {@code capacity} postings.
     */
    Tail(int[] summaries, int blocks, int capacity) {
      totalTermFreq = blocks == 0 ? 0 : LiveBlockLayout.totalTermFreq(summaries, blocks - 1);
      docs = new int[capacity];
      freqs = new int[capacity];
    }

    void add(int doc, int freq, LiveField field) {
      docs[count] = doc;
      freqs[count] = freq;
      count++;
      totalTermFreq += freq;
      maxFreq = Math.max(maxFreq, freq);
      long norm = field.normOrOne(doc);
      if (Long.compareUnsigned(norm, minNorm) < 0) {
        minNorm = norm;
      }
    }

    Tail finish() {
      if (maxFreq == 0) {
        // no partial block: its impact covers no doc, keep it a valid (freq >= 1) pair
        maxFreq = 1;
        minNorm = 1L;
      }
      return this;
    }
  }

  byte[][] slabs() {
    return slabs;
  }

  /** Positions {@code cursor} at the start of whole block {@code block} (-1: the first posting). */
  void positionAtBlock(LivePostingCursor cursor, int block) {
    if (start < 0) {
      cursor.resetToInline(inlineDoc, ~start);
    } else {
      cursor.resetToBlock(summaries, block, start);
    }
  }

  int blocks() {
    return blocks;
  }

  int size() {
    return size;
  }

  long totalTermFreq() {
    return tail().totalTermFreq;
  }

  /**
   * Copies the {@code n} postings from posting {@code from} (after the last whole block) into
   * {@code docs} and {@code freqs} if a lookup already decoded them; returns false otherwise.
   */
  boolean copyTail(int from, int[] docs, int[] freqs, int n) {
    Tail t = tail;
    if (t == null) {
      return false;
    }
    int offset = from - blocks * BLOCK;
    System.arraycopy(t.docs, offset, docs, 0, n);
    System.arraycopy(t.freqs, offset, freqs, 0, n);
    return true;
  }

  /** Max freq in the postings after the last whole block. */
  int tailMaxFreq() {
    return tail().maxFreq;
  }

  /** Min norm (unsigned) of the postings after the last whole block. */
  long tailMinNorm() {
    return tail().minNorm;
  }

  /** The first of the first {@code blocks} blocks whose last doc is at least {@code doc}. */
  private static int firstBlockReaching(int[] summaries, int blocks, int doc) {
    int lo = 0;
    int hi = blocks;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (LiveBlockLayout.lastDoc(summaries, mid) < doc) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  boolean hasPositions() {
    return field.hasPositions();
  }

  int blockLastDoc(int block) {
    return LiveBlockLayout.lastDoc(summaries, block);
  }

  /** The last doc before block {@code block}, or -1 before the first. */
  int docBeforeBlock(int block) {
    return block == 0 ? -1 : blockLastDoc(block - 1);
  }

  /** The pool address of whole block {@code block}'s fixed-width copy ({@link LiveSealedBlock}). */
  int sealedBlockAddress(int block) {
    return LiveBlockLayout.sealedAddress(summaries, block);
  }

  /**
   * Fills {@code buffer} with whole block {@code block}'s competitive impacts (at most {@value
   * LiveBlockLayout#IMPACT_PAIRS} pairs, ascending).
   */
  void blockImpacts(int block, FreqAndNormBuffer buffer) {
    LiveBlockLayout.readImpacts(summaries, block, buffer);
  }
}
