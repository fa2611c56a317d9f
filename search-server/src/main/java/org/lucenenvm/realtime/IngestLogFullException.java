package org.lucenenvm.realtime;

/**
 * An {@link IngestLog} append found no room before its timeout: the log never overwrites records
 * that {@link IngestLog#truncate} has not reclaimed. The operation was not logged, applied or
 * acknowledged, and nothing acknowledged was lost: the condition is temporary (the pipeline frees
 * the room once it made the logged operations durable in segments), so the write may be retried.
 * Unchecked, like {@link NvmFullException}: it refuses one write, it does not fail the engine.
 */
public final class IngestLogFullException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the log, its size and the record refused. */
  public IngestLogFullException(String message) {
    super(message);
  }

  /** As {@link #IngestLogFullException(String)}, adding context to {@code cause}. */
  public IngestLogFullException(String message, IngestLogFullException cause) {
    super(message, cause);
  }
}
