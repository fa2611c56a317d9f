package org.lucenenvm.realtime;

/**
 * Thrown when the NVM budget (or the NVM directory itself) cannot take the next segment. Ingestion
 * stops; every acknowledged document stays searchable from DRAM.
 */
public class NvmFullException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the budget and the demand. */
  public NvmFullException(String message) {
    super(message);
  }
}
