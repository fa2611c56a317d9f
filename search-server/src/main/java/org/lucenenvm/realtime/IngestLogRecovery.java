package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.lucenenvm.realtime.IngestLogFormat.Decoded;
import org.lucenenvm.realtime.IngestLogFormat.Head;
import org.lucenenvm.realtime.IngestLogFormat.Problem;

/**
 * Finds the end of an {@link IngestLog} when it is opened (after a clean close or not): reads the
 * records from the head while they are valid, decides whether the first invalid one ends the log
 * or is corruption (see {@link IngestLogFormat}), and clears the unacknowledged records a torn
 * tail left behind.
 */
final class IngestLogRecovery {
  /**
   * Where appends continue (tail position, next sequence number), how many records the log holds
   * and, if the log ended in a torn write, a description of it (else null).
   */
  record Tail(long position, long nextSequence, long records, String tornTail) {}

  private IngestLogRecovery() {}

  static Tail recover(LogRing ring, Head head) throws IOException {
    long position = head.position();
    long expected = head.sequence();
    long acknowledged = head.ackedThrough();
    long end = head.position() + ring.capacity();
    Decoded stop = null;
    while (position < end) {
      Decoded decoded = IngestLogFormat.decode(ring, position);
      if (decoded.valid() && decoded.record().sequence() != expected) {
        decoded =
            Decoded.invalid(
                Problem.DAMAGED, "sequence " + decoded.record().sequence() + " where " + expected + " belongs");
      }
      if (!decoded.valid()) {
        stop = decoded;
        break;
      }
      acknowledged = Math.max(acknowledged, decoded.ackedThrough());
      position += decoded.space();
      expected++;
    }
    long records = expected - head.sequence();
    if (stop == null) {
      return new Tail(position, expected, records, null);
    }
    // Valid records of this lap further on: unacknowledged leftovers of a torn batch, or witnesses
    // that the missing record was acknowledged.
    List<Long> leftovers = new ArrayList<>();
    for (long at = position + IngestLogFormat.LINE; at < end; at += IngestLogFormat.LINE) {
      if (IngestLogFormat.hasRecordMagic(ring, at)) {
        Decoded later = IngestLogFormat.decode(ring, at);
        if (later.valid()) {
          acknowledged = Math.max(acknowledged, later.ackedThrough());
          leftovers.add(at);
        }
      }
    }
    if (acknowledged >= expected) {
      throw new CorruptIngestLogException(
          "ingest log is corrupt at "
              + ring.where(position)
              + ": record "
              + expected
              + " is unreadable ("
              + stop.detail()
              + ") but records up to "
              + acknowledged
              + " were acknowledged; refusing to recover without it");
    }
    if (stop.problem() != Problem.DAMAGED && leftovers.isEmpty()) {
      return new Tail(position, expected, records, null); // the normal end of the log
    }
    if (stop.problem() == Problem.DAMAGED) {
      leftovers.add(position);
    }
    for (long at : leftovers) {
      ring.write(at, new byte[Integer.BYTES]);
      ring.persist(at, at + Integer.BYTES);
    }
    String torn =
        "torn tail at " + ring.where(position) + ": record " + expected + " (" + stop.detail()
            + ") was in flight, never acknowledged; cleared " + leftovers.size() + " unacknowledged record(s)";
    return new Tail(position, expected, records, torn);
  }
}
