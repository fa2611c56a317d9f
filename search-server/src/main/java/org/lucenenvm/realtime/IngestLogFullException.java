package org.lucenenvm.realtime;

import java.io.IOException;

/**
 * An {@link IngestLog} append found no room before its timeout: the log never overwrites records
 * that {@link IngestLog#truncate} has not reclaimed. The operation was not logged (nor
 * acknowledged); retry after the engine made segments durable and truncated the log.
 */
public final class IngestLogFullException extends IOException {
  public IngestLogFullException(String message) {
    super(message);
  }
}
