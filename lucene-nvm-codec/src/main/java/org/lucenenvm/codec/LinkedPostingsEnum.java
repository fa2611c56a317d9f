package org.lucenenvm.codec;

import java.io.IOException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FreqAndNormBuffer;
import org.apache.lucene.index.Impacts;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * Iterates a term of a linked segment over its runs in order: each run's postings are read by an
 * {@link NvmPostingsEnum} on that run's files, and its doc IDs are shifted by the run's doc base.
 * {@link #advance} skips whole runs whose doc range ends before the target. Impacts are those of
 * the run holding the target, shifted likewise; no level reaches past the end of its run, so a
 * block-max scorer asks again (with {@link #advanceShallow}) for the next run's. The batch methods
 * {@link #nextPostings} and {@link #intoBitSet} are the current run's, shifted; {@code
 * docIDRunEnd} is Lucene's default.
 */
final class LinkedPostingsEnum extends ImpactsEnum {

  private final NvmPostingsReader owner;
  private final int flags;

  /** One enum per run of the segment, created when a term first needs it, reused across terms. */
  private final NvmPostingsEnum[] runEnums;

  private final ShiftedImpacts shiftedImpacts = new ShiftedImpacts();

  private FieldInfo field;

  /**
   * A copy of the term's state: the terms enum reuses its own for the next term, and this enum
   * resets its runs' enums from it as it reaches them.
   */
  private final LinkedTermState state = new LinkedTermState();

  /** Index, among the term's runs, of the run of the current doc. */
  private int current;

  private NvmPostingsEnum currentEnum;
  private int currentBase;
  private int doc;
  private long cost;

  /** The largest target passed to {@link #advanceShallow} for the current term, or -1. */
  private int shallowTarget;

  /** Index of a later run of the term whose enum is reset for its impacts, or -1. */
  private int lookahead;

  LinkedPostingsEnum(NvmPostingsReader owner, int flags) {
    this.owner = owner;
    this.flags = flags;
    this.runEnums = new NvmPostingsEnum[owner.runCount()];
  }

  /** True if this enum reads the runs of {@code reader} with the same {@code flags}. */
  boolean canReuse(NvmPostingsReader reader, int flags) {
    return owner == reader && this.flags == flags;
  }

  LinkedPostingsEnum reset(FieldInfo field, LinkedTermState termState, int flags)
      throws IOException {
    assert flags == this.flags;
    this.field = field;
    state.copyFrom(termState);
    cost = state.docFreq;
    doc = -1;
    shallowTarget = -1;
    lookahead = -1;
    current = 0;
    enterRun(0);
    return this;
  }

  /** Makes the term's run {@code index} current, positioned before its first doc. */
  private void enterRun(int index) throws IOException {
    currentEnum = index == lookahead ? runEnums[state.runs[index]] : freshEnum(index);
    lookahead = -1;
    current = index;
    currentBase = owner.docBase(state.runs[index]);
  }

  /**
   * The enum of the term's run {@code index} (at or after the current one): the current enum, or
   * the run's enum reset once and kept as {@link #lookahead} for impacts until iteration gets
   * there.
   */
  private NvmPostingsEnum enumOf(int index) throws IOException {
    if (index == current) {
      return currentEnum;
    }
    if (index != lookahead) {
      freshEnum(index);
      lookahead = index;
    }
    return runEnums[state.runs[index]];
  }

  /** A new or reset enum over the term in its run {@code index}. */
  private NvmPostingsEnum freshEnum(int index) throws IOException {
    int run = state.runs[index];
    NvmPostingsEnum postings = runEnums[run];
    if (postings == null) {
      postings = runEnums[run] = new NvmPostingsEnum(owner.run(run), flags);
    }
    return postings.reset(field, state.states[index], flags);
  }

  /** End (exclusive) of the doc range of the term's run {@code index}. */
  private int runEnd(int index) {
    int run = state.runs[index];
    return owner.docBase(run) + owner.maxDoc(run);
  }

  /**
   * Index of the first of the term's runs, from index {@code from}, whose doc range ends past
   * {@code target}, or the term's run count if there is none.
   */
  private int runAtOrAfter(int target, int from) {
    int index = from;
    while (index < state.count && runEnd(index) <= target) {
      index++;
    }
    return index;
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    return moveTo(currentEnum.nextDoc());
  }

  /**
   * Makes the current run's doc {@code next} current, or, if the run has no more docs, the first
   * doc of the following runs that has one.
   */
  private int moveTo(int next) throws IOException {
    while (next == NO_MORE_DOCS) {
      if (current + 1 == state.count) {
        return doc = NO_MORE_DOCS;
      }
      enterRun(current + 1);
      next = currentEnum.nextDoc();
    }
    return doc = currentBase + next;
  }

  @Override
  public int advance(int target) throws IOException {
    int index = runAtOrAfter(target, current);
    if (index == state.count) {
      return doc = NO_MORE_DOCS;
    }
    if (index != current) {
      enterRun(index);
    }
    return moveTo(currentEnum.advance(Math.max(0, target - currentBase)));
  }

  @Override
  public int freq() throws IOException {
    return currentEnum.freq();
  }

  @Override
  public int nextPosition() throws IOException {
    return currentEnum.nextPosition();
  }

  @Override
  public int startOffset() throws IOException {
    return currentEnum.startOffset();
  }

  @Override
  public int endOffset() throws IOException {
    return currentEnum.endOffset();
  }

  @Override
  public BytesRef getPayload() throws IOException {
    return currentEnum.getPayload();
  }

  @Override
  public long cost() {
    return cost;
  }

  /** The current run's next batch (it never spans two runs), its doc IDs shifted by the run's base. */
  @Override
  public void nextPostings(int upTo, DocAndFloatFeatureBuffer buffer) throws IOException {
    if (doc >= upTo) {
      buffer.size = 0;
      return;
    }
    currentEnum.nextPostings(upTo - currentBase, buffer);
    for (int i = 0; i < buffer.size; i++) {
      buffer.docs[i] += currentBase;
    }
    moveTo(currentEnum.docID());
  }

  /** Each run's docs below {@code upTo} through its own {@code intoBitSet}, shifted by its base. */
  @Override
  public void intoBitSet(int upTo, FixedBitSet bitSet, int offset) throws IOException {
    while (doc < upTo) {
      currentEnum.intoBitSet(upTo - currentBase, bitSet, offset - currentBase);
      moveTo(currentEnum.docID());
    }
  }

  @Override
  public void advanceShallow(int target) throws IOException {
    shallowTarget = Math.max(shallowTarget, target);
    shallowRun(target);
  }

  /**
   * Impacts of the run holding the first doc at or after the current doc and the largest {@link
   * #advanceShallow} target: that run's enum is moved there (a later run's enum then keeps its
   * position when iteration reaches the run), and its impacts are shifted by the run's doc base.
   */
  @Override
  public Impacts getImpacts() throws IOException {
    int index = shallowRun(Math.max(doc, shallowTarget));
    if (index == state.count) {
      return NvmPostingsEnum.NO_FREQ_IMPACTS;
    }
    int run = state.runs[index];
    shiftedImpacts.of(enumOf(index).getImpacts(), owner.docBase(run), runEnd(index) - 1);
    return shiftedImpacts;
  }

  /**
   * Moves the impacts of the run holding {@code target} (at or after the current doc) there and
   * returns its index among the term's runs, or the term's run count if no run holds it.
   */
  private int shallowRun(int target) throws IOException {
    int index = runAtOrAfter(target, current);
    if (index < state.count) {
      int base = owner.docBase(state.runs[index]);
      enumOf(index).advanceShallow(Math.max(0, target - base));
    }
    return index;
  }

  /** The impacts of one run's enum, with doc IDs shifted by its base and capped at its last doc. */
  private static final class ShiftedImpacts extends Impacts {
    private Impacts in;
    private int base;
    private int lastDoc;

    void of(Impacts in, int base, int lastDoc) {
      this.in = in;
      this.base = base;
      this.lastDoc = lastDoc;
    }

    @Override
    public int numLevels() {
      return in.numLevels();
    }

    @Override
    public int getDocIdUpTo(int level) {
      int upTo = in.getDocIdUpTo(level);
      return upTo >= lastDoc - base ? lastDoc : base + upTo;
    }

    @Override
    public FreqAndNormBuffer getImpacts(int level) {
      return in.getImpacts(level);
    }
  }
}
