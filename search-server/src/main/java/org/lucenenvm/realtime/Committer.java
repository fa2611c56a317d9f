package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Pipeline stage 3: switches queries from a segment's DRAM copy to its NVM copy (engraving first
 * when the policy is lazy) and drops the DRAM copy, which is freed once no query holds it. Under
 * the eager pointer policy at once, otherwise while DRAM is over budget, oldest segment first.
 * Committed segments are handed to {@code next} (the merger). A lazy engrave waits for room like
 * an eager one ({@link Engraver#engrave}); given up (the pipeline stops), the segment and those
 * after it stay queued in DRAM.
 */
final class Committer {
  private final boolean eagerPointer;
  private final MemoryAccounts accounts;
  private final Engraver engraver;
  private final PartitionTable table;
  private final Consumer<SegmentDescriptor> next;
  private final ArrayDeque<SegmentDescriptor> awaiting = new ArrayDeque<>();

  Committer(
      PipelinePolicy policy,
      MemoryAccounts accounts,
      Engraver engraver,
      PartitionTable table,
      Consumer<SegmentDescriptor> next) {
    this.eagerPointer = policy.eagerPointer();
    this.accounts = accounts;
    this.engraver = engraver;
    this.table = table;
    this.next = next;
  }

  /** Queues a flushed segment and commits whatever is due. */
  void offer(SegmentDescriptor d) throws IOException {
    awaiting.addLast(d);
    commitDue();
  }

  /** Commits queued segments while the policy or the DRAM budget says so. */
  void commitDue() throws IOException {
    while (!awaiting.isEmpty() && (eagerPointer || accounts.dramOverBudget())) {
      if (!commit(awaiting.peekFirst())) {
        return;
      }
      awaiting.removeFirst();
    }
  }

  /** Commits {@code d}; returns false when its engrave was given up (the pipeline stops). */
  private boolean commit(SegmentDescriptor d) throws IOException {
    if (d.retired()) {
      return true;
    }
    if (!engraver.engrave(d)) {
      return false;
    }
    d.committed();
    table.changed();
    next.accept(d);
    return true;
  }
}
