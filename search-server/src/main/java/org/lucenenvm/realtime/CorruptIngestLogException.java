package org.lucenenvm.realtime;

import java.io.IOException;

/**
 * An {@link IngestLog} holds damaged data where an acknowledged record (or the log's header)
 * should be: the message names the pool, the offset in the pool, the record and what is wrong.
 * Nothing is repaired or skipped; the log stays as it is for inspection.
 */
public final class CorruptIngestLogException extends IOException {
  public CorruptIngestLogException(String message) {
    super(message);
  }
}
