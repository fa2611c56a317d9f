package org.lucenenvm.realtime;

import static org.lucenenvm.realtime.LiveBlockLayout.BLOCK;
import static org.lucenenvm.realtime.LiveBlockLayout.IMPACT_COUNT;
import static org.lucenenvm.realtime.LiveBlockLayout.IMPACT_PAIRS;
import static org.lucenenvm.realtime.LiveBlockLayout.LAST_DOC;
import static org.lucenenvm.realtime.LiveBlockLayout.NEXT_ADDRESS;
import static org.lucenenvm.realtime.LiveBlockLayout.NEXT_DATA_END;
import static org.lucenenvm.realtime.LiveBlockLayout.NEXT_LEVEL;
import static org.lucenenvm.realtime.LiveBlockLayout.SEALED_ADDRESS;
import static org.lucenenvm.realtime.LiveBlockLayout.SUMMARY_INTS;
import static org.lucenenvm.realtime.LiveBlockLayout.TOTAL_TERM_FREQ;

import java.util.List;
import org.apache.lucene.codecs.CompetitiveImpactAccumulator;
import org.apache.lucene.codecs.Impact;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Writes the terms and postings of one field of a {@link LiveSegment} in the layout of {@link
 * LiveBlockLayout}: terms into the field's {@link LiveTermHash}, postings into {@link LiveBytePool}
 * slices, block summaries into its {@link LiveBlockSummaries}. One thread writes; readers go
 * through the term hash and the summaries, under the memory model of {@link LiveTermHash}.
 *
 * <p>A short term's first posting of freq 1 is held in the term table; the second posting moves it
 * into a new slice and release-stores the slice's address before the state that counts it. Every
 * {@value LiveBlockLayout#BLOCK} postings the writer seals a block: it appends the block's summary
 * to the term's summary array, with the block's competitive impacts ({@link
 * CompetitiveImpactAccumulator}, merged in runs into at most {@value LiveBlockLayout#IMPACT_PAIRS}
 * pairs), and writes the block's docs and freqs once more in fixed width ({@link
 * LiveSealedBlock}), which readers that need no positions decode instead of the vInts. A term's
 * state is release-stored last, after the posting's bytes, its summary and any grown array.
 *
 * <p>Every term a document touches is journaled ({@link LiveAddJournal}) until the document is
 * {@link #commit committed}; a failed add is {@link #rollback rolled back}.
 */
final class LiveTermPostings {
  private final LiveBytePool pool;
  private final LiveField field;
  private final boolean withPositions;
  private final LiveTermHash terms;
  private final LiveBlockSummaries blockSummaries;
  private final LiveAddJournal journal;
  private long summaryBytes;
  /** The docs and freqs of the block being sealed. */
  private final int[] sealDocs = new int[BLOCK];
  private final int[] sealFreqs = new int[BLOCK];
  private final CompetitiveImpactAccumulator sealImpacts = new CompetitiveImpactAccumulator();

  /** Where the term being added writes its next byte. */
  private int writeCursor;

  LiveTermPostings(
      LiveBytePool pool, LiveField field, LiveTermHash terms, LiveBlockSummaries blockSummaries) {
    this.pool = pool;
    this.field = field;
    this.withPositions = field.hasPositions();
    this.terms = terms;
    this.blockSummaries = blockSummaries;
    this.journal = new LiveAddJournal(pool);
  }

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
    int id = terms.findOrAdd(term);
    LiveTermHash.Table t = terms.table();
    long state = t.state[id];
    int count = (int) (state >>> 32);
    int lastDoc = count == 0 ? -1 : (int) state;
    if (doc <= lastDoc) {
      throw new IllegalArgumentException(
          "term '" + term.utf8ToString() + "' added twice to doc " + doc + " of field '"
              + field.name + "'");
    }
    journal.record(t, id);
    if (count == 0
        && term.length <= LiveBlockLayout.INLINE_BYTES
        && (!withPositions || freq == 1)) {
      t.releaseTermAddress(id, ~(withPositions ? positions[0] : 0));
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
    terms.table().releaseState(id, (long) count << 32 | doc);
    return id;
  }

  /**
   * Points {@link #writeCursor} where term {@code id}'s next posting goes: a new first slice for an
   * inline term without one, into which a posting held inline moves first; else the cursor as is.
   */
  private void startWriting(LiveTermHash.Table t, int id, int count, int lastDoc) {
    int address = t.termAddress[id];
    boolean inlinePosting = count == 1 && address < 0;
    if (count == 0 && LiveBlockLayout.isInline(t.key[id]) || inlinePosting) {
      int start = LiveSlices.allocate(pool, 0);
      writeCursor = start;
      if (inlinePosting && withPositions) {
        writeVInt((lastDoc + 1) << 1 | 1);
        writeVInt(~address);
      } else if (inlinePosting) {
        writeVInt(lastDoc + 1);
      }
      t.releaseTermAddress(id, start);
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
    journal.commit();
  }

  /** Restores every term the current document touched (see {@link LiveAddJournal#rollback}). */
  void rollback() {
    journal.rollback(terms.table());
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
      journal.crossed(c, marker);
      LiveSlices.writePointer(pool, c, next);
      c = next;
      slab = pool.slab(c);
    }
    slab[c & LiveBytePool.SLAB_MASK] = b;
    writeCursor = c + 1;
  }

  /** Writes the summary of block {@code block}, which ends with {@code lastDoc}. */
  private void seal(int id, int block, int lastDoc) {
    LiveTermHash.Table t = terms.table();
    int[] previous = blockSummaries.get(id);
    LivePostingCursor decoder = new LivePostingCursor(pool.slabs(), withPositions);
    decoder.resetToBlock(previous, block - 1, terms.start(id));
    long sumFreq = block == 0 ? 0 : LiveBlockLayout.totalTermFreq(previous, block - 1);
    int previousDoc = block == 0 ? -1 : LiveBlockLayout.lastDoc(previous, block - 1);
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
   * Writes {@code competitive} (ascending) as at most {@value LiveBlockLayout#IMPACT_PAIRS} pairs
   * into the summary at {@code offset}: the pairs split into that many runs of consecutive pairs,
   * each run written as its last freq (the highest) with its first norm (the lowest).
   */
  private static void writeImpacts(List<Impact> competitive, int[] summaries, int offset) {
    int pairs = competitive.size();
    int count = Math.min(IMPACT_PAIRS, pairs);
    summaries[offset + IMPACT_COUNT] = count;
    for (int run = 0; run < count; run++) {
      LiveBlockLayout.setImpact(
          summaries,
          offset,
          run,
          competitive.get((run + 1) * pairs / count - 1).freq,
          competitive.get(run * pairs / count).norm);
    }
  }

  /** Bytes held by the term hash, summaries and the journal (slices are in the pool). */
  long ramBytesUsed() {
    return terms.ramBytesUsed()
        + summaryBytes
        + blockSummaries.ramBytesUsed()
        + journal.ramBytesUsed();
  }
}
