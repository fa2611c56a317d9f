package org.lucenenvm.realtime;

/**
 * Thrown when the NVM budget or the NVM directory cannot take a segment: to a write as {@link
 * FloodStageException} (refused, retry once room is freed), to a graceful close that cannot
 * persist every segment, and to every write once a pool too full to record a deletion failed the
 * pipeline. Every acknowledged document stays searchable.
 */
public class NvmFullException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the budget and the demand. */
  public NvmFullException(String message) {
    super(message);
  }
}
