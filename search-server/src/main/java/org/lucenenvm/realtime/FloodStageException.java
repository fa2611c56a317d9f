package org.lucenenvm.realtime;

/**
 * An add or update refused because the NVM pool has no room to spare: its use is at or above the
 * flood stage ({@link RtEngineConfig#floodStage()}), or a pipeline stage waits for room for a
 * segment it must write. Nothing was applied; searches, gets and deletes go on, and once deletes
 * and merges (or a larger pool) free room the same write succeeds. The message and {@link #usage()}
 * name the pool and the numbers.
 */
public class FloodStageException extends NvmFullException {
  private static final long serialVersionUID = 1L;

  private final transient NvmUsage usage;

  /** Creates the exception for {@code usage}, with a message naming the pool and the numbers. */
  public FloodStageException(NvmUsage usage) {
    super(message(usage));
    this.usage = usage;
  }

  private static String message(NvmUsage usage) {
    String pool = "NVM pool " + usage.pool() + " (" + usage.describe() + ")";
    String refused =
        usage.floodStageReached()
            ? pool + " is at its flood stage: adds and updates are refused"
            : pool + ": adds and updates are refused while the pipeline waits for room ("
                + usage.waitingFor()
                + ")";
    return refused
        + " until deletes and merges free room (searches, gets and deletes go on)";
  }

  /** The pool's figures when the write was refused. */
  public NvmUsage usage() {
    return usage;
  }
}
