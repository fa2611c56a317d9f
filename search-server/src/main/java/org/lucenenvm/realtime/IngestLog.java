package org.lucenenvm.realtime;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.store.AlreadyClosedException;
import org.lucenenvm.realtime.IngestLogFormat.Decoded;
import org.lucenenvm.realtime.IngestLogFormat.Head;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmRegion;

/**
 * The ingest log of crash-consistent mode: an NVM-resident circular log of operations (add,
 * update, delete), each persisted before {@link #append} returns, so an acknowledged operation
 * survives a crash or power failure until {@link #truncate} reclaims it (once the segments holding
 * it are durable). Format and recovery rules: {@link IngestLogFormat}.
 *
 * <p>The log is a file of the engine's {@link NvmDirectory} (a {@link NvmRegion}: one extent
 * updated in place), not a separate region of the heap: the engine's NVM tier is a directory, so
 * the log's space is allocated, accounted, listed and recovered with the segment files, and a
 * crash can neither leak nor double-book it.
 *
 * <p>Group commit: writers copy their record into the ring one at a time (under a lock) and then
 * wait until a persist covers it; one waiting writer at a time issues the persist for everything
 * written so far, so concurrent writers share one persist barrier. When the log is full a writer
 * waits up to the configured timeout for {@link #truncate} to free space, then fails with {@link
 * IngestLogFullException}; it never overwrites records not reclaimed. After a failed persist the
 * log refuses further writes (what reached the pool is unknown).
 *
 * <p>Two ways to write: {@link #append} does everything (wait for space, write, wait until
 * durable); a caller that must order its records with its own state (the engine: log order is
 * apply order) splits it into {@link #reserve} (waits for space, outside the caller's lock),
 * {@link #write} (assigns the sequence number and copies the record, under the caller's lock, no
 * persist) and {@link #awaitDurable} (after the caller released its lock).
 */
public final class IngestLog implements Closeable {
  private final NvmRegion region;
  private final LogRing ring;
  private final Duration fullTimeout;
  private final RecoveryReport recovery;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition durableAdvanced = lock.newCondition();
  private final Condition spaceFreed = lock.newCondition();
  // Guarded by lock.
  private Head head;
  private long tail;
  /** Bytes reserved by {@link #reserve} and not yet written or released. */
  private long reserved;
  private long nextSequence;
  private long durablePosition;
  private long durableSequence;
  private boolean persisting;
  private IOException failure;
  private boolean closed;

  /** What opening the log found: records kept, their sequence range and any torn tail. */
  public record RecoveryReport(
      boolean created, long records, long firstSequence, long lastSequence, String tornTail, long nanos) {}

  private IngestLog(NvmRegion region, LogRing ring, Duration fullTimeout, Head head, IngestLogRecovery.Tail end, boolean created, long started) {
    this.region = region;
    this.ring = ring;
    this.fullTimeout = fullTimeout;
    this.head = head;
    this.tail = end.position();
    this.nextSequence = end.nextSequence();
    this.durablePosition = tail;
    this.durableSequence = nextSequence - 1;
    this.recovery =
        new RecoveryReport(created, end.records(), head.sequence(), nextSequence - 1, end.tornTail(), System.nanoTime() - started);
  }

  /**
   * Opens the log file {@code name} of {@code directory}, creating it with a record area of
   * {@code capacity} bytes (rounded up to 64) if it does not exist, and recovers its end. An
   * existing log keeps the capacity it was created with ({@code capacity} is then ignored).
   *
   * @param fullTimeout how long an append waits for space in a full log before it fails
   * @throws CorruptIngestLogException if the log lost an acknowledged record or its header is
   *     damaged
   */
  public static IngestLog open(NvmDirectory directory, String name, long capacity, Duration fullTimeout)
      throws IOException {
    return open(directory, name, capacity, fullTimeout, 1);
  }

  /**
   * As {@link #open(NvmDirectory, String, long, Duration)}, numbering the records of a new log from
   * {@code firstSequence} on (an engine continues the numbering its manifest records).
   */
  public static IngestLog open(
      NvmDirectory directory, String name, long capacity, Duration fullTimeout, long firstSequence)
      throws IOException {
    if (firstSequence < 1) {
      throw new IllegalArgumentException("sequence numbers start at 1 or later, got " + firstSequence);
    }
    long started = System.nanoTime();
    boolean exists = Arrays.asList(directory.listAll()).contains(name);
    if (!exists && capacity <= 0) {
      throw new IllegalArgumentException("a new ingest log needs a capacity > 0, got " + capacity);
    }
    NvmRegion region =
        exists
            ? directory.openRegion(name)
            : directory.createRegion(name, IngestLogFormat.HEADER_SIZE + IngestLogFormat.align(capacity));
    try {
      MemorySegment file = region.segment();
      boolean created = IngestLogFormat.isBlank(file);
      if (created) {
        format(region, file.byteSize() - IngestLogFormat.HEADER_SIZE, firstSequence);
      }
      String problem = IngestLogFormat.headerProblem(file);
      if (problem != null) {
        throw new CorruptIngestLogException(
            "ingest log " + name + " in pool " + region.poolPath() + " at pool offset " + region.poolOffset() + ": " + problem);
      }
      Head head = currentHead(region);
      LogRing ring = new LogRing(region, IngestLogFormat.HEADER_SIZE, IngestLogFormat.capacity(file));
      IngestLogRecovery.Tail end = IngestLogRecovery.recover(ring, head);
      return new IngestLog(region, ring, fullTimeout, head, end, created, started);
    } catch (Throwable t) {
      region.close();
      throw t;
    }
  }

  /** Writes a new log's header and first head slot; the magic goes last. */
  private static void format(NvmRegion region, long capacity, long firstSequence) throws IOException {
    MemorySegment file = region.segment();
    IngestLogFormat.writeHeader(file, capacity);
    IngestLogFormat.writeSlot(file, IngestLogFormat.SLOT_0, new Head(1, 0, firstSequence, firstSequence - 1));
    region.persist(0, IngestLogFormat.SLOT_1);
    IngestLogFormat.writeMagic(file);
    region.persist(0, Long.BYTES);
  }

  /** The head slot in use: the valid one of the higher generation. */
  static Head currentHead(NvmRegion region) throws CorruptIngestLogException {
    Head a = IngestLogFormat.readSlot(region.segment(), IngestLogFormat.SLOT_0);
    Head b = IngestLogFormat.readSlot(region.segment(), IngestLogFormat.SLOT_1);
    if (a == null && b == null) {
      throw new CorruptIngestLogException(
          "ingest log " + region.name() + " in pool " + region.poolPath() + " at pool offset "
              + (region.poolOffset() + IngestLogFormat.SLOT_0) + ": both head slots fail their checksums");
    }
    return a == null || (b != null && b.generation() > a.generation()) ? b : a;
  }

  /** What opening this log found. */
  public RecoveryReport recovery() {
    return recovery;
  }

  /**
   * Logs an operation and returns its sequence number once the record is durable (the
   * acknowledgement): {@link #reserve}, {@link #write} and {@link #awaitDurable} in one call.
   *
   * @param document the document bytes (empty for {@link LogOperation#DELETE})
   * @throws IngestLogFullException if no space was freed within the timeout
   */
  public long append(LogOperation operation, String id, byte[] document) throws IOException {
    long space = reserve(id, document);
    long sequence;
    try {
      sequence = write(space, operation, id, document);
    } catch (IOException | RuntimeException e) {
      release(space);
      throw e;
    }
    awaitDurable(sequence);
    return sequence;
  }

  /**
   * Waits (up to the timeout) until the log has room for the record of {@code id} and {@code
   * document}, and sets that room aside; returns its size, to pass to {@link #write} or {@link
   * #release}. Call it without holding locks that truncation needs.
   *
   * @throws IngestLogFullException if no space was freed within the timeout
   * @throws IllegalArgumentException if the record is larger than the whole log
   */
  public long reserve(String id, byte[] document) throws IOException {
    int idLength = id.getBytes(StandardCharsets.UTF_8).length;
    long space = IngestLogFormat.recordSpace(idLength, document.length);
    lock.lock();
    try {
      ensureUsable();
      if (space > ring.capacity()) {
        throw new IllegalArgumentException(
            "record of " + space + " bytes for id '" + id + "' exceeds the capacity of ingest log "
                + region.name() + " in " + region.poolPath() + " (" + ring.capacity()
                + " bytes): it can never be logged; a larger log needs a new index");
      }
      awaitSpace(space, id);
      reserved += space;
      return space;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back room set aside by {@link #reserve} that no record will use. */
  public void release(long space) {
    lock.lock();
    try {
      reserved -= space;
      spaceFreed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Writes a record into room set aside by {@link #reserve} and returns its sequence number, without
   * waiting for it to be durable ({@link #awaitDurable} does). Records are numbered in the order of
   * the calls, so a caller that holds its own lock around this call gets its own order in the log.
   *
   * @param space what {@link #reserve} returned for this id and document
   */
  public long write(long space, LogOperation operation, String id, byte[] document) throws IOException {
    byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
    if (space != IngestLogFormat.recordSpace(idBytes.length, document.length)) {
      throw new IllegalArgumentException("reserved " + space + " bytes for another record than '" + id + "'");
    }
    lock.lock();
    try {
      ensureUsable();
      reserved -= space;
      long sequence = nextSequence++;
      long position = tail;
      tail += space;
      ring.write(position, IngestLogFormat.encode(sequence, position, durableSequence, operation, idBytes, document));
      return sequence;
    } finally {
      lock.unlock();
    }
  }

  private void awaitSpace(long space, String id) throws IOException {
    long remaining = fullTimeout.toNanos();
    while (tail + reserved + space - head.position() > ring.capacity()) {
      if (remaining <= 0) {
        throw new IngestLogFullException(
            "ingest log " + region.name() + " in " + region.poolPath() + " is full: a record of " + space
                + " bytes for id '" + id + "' does not fit; " + (tail - head.position()) + " of " + ring.capacity()
                + " bytes hold records " + head.sequence() + ".." + (nextSequence - 1)
                + " not yet reclaimed (truncate once the segments holding them are durable)");
      }
      try {
        remaining = spaceFreed.awaitNanos(remaining);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for space in ingest log " + region.name());
      }
      ensureUsable();
    }
  }

  /**
   * Returns once every record up to {@code sequence} is durable, issuing the shared persist if no
   * other writer is (group commit).
   */
  public void awaitDurable(long sequence) throws IOException {
    lock.lock();
    try {
      awaitDurableLocked(sequence);
    } finally {
      lock.unlock();
    }
  }

  private void awaitDurableLocked(long sequence) throws IOException {
    if (sequence >= nextSequence) {
      throw new IllegalArgumentException(
          "record " + sequence + " was not written to ingest log " + region.name() + " (next: " + nextSequence + ")");
    }
    while (durableSequence < sequence) {
      ensureUsable();
      if (persisting) {
        durableAdvanced.awaitUninterruptibly();
        continue;
      }
      persisting = true;
      long from = durablePosition;
      long to = tail;
      long through = nextSequence - 1;
      lock.unlock();
      IOException failed = null;
      try {
        ring.persist(from, to);
      } catch (IOException | RuntimeException e) {
        failed = e instanceof IOException io ? io : new IOException(e);
      } finally {
        lock.lock();
        persisting = false;
        durableAdvanced.signalAll();
      }
      if (failed != null) {
        failure = failed;
        throw new IOException("persisting ingest log " + region.name() + " in " + region.poolPath() + " failed", failed);
      }
      durablePosition = to;
      durableSequence = through;
    }
  }

  private void ensureUsable() throws IOException {
    if (closed) {
      throw new AlreadyClosedException("ingest log " + region.name() + " is closed");
    }
    if (failure != null) {
      throw new IOException("ingest log " + region.name() + " failed earlier; no further appends", failure);
    }
  }

  /**
   * Reclaims the records up to {@code sequence} (inclusive): their space may be reused. Call it
   * once the segments holding those operations are durable.
   *
   * @throws IllegalArgumentException if {@code sequence} was not acknowledged yet
   */
  public void truncate(long sequence) throws IOException {
    lock.lock();
    try {
      ensureUsable();
      if (sequence > durableSequence) {
        throw new IllegalArgumentException(
            "cannot reclaim up to record " + sequence + ": only records up to " + durableSequence + " are durable");
      }
      long position = head.position();
      long next = head.sequence();
      for (; next <= sequence; next++) {
        Decoded decoded = IngestLogFormat.decode(ring, position);
        if (!decoded.valid() || decoded.record().sequence() != next) {
          throw unreadable(position, next, decoded);
        }
        position += decoded.space();
      }
      if (next != head.sequence()) {
        writeHead(new Head(head.generation() + 1, position, next, durableSequence));
        spaceFreed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reclaims every record and numbers the next one {@code sequence + 1}: for recovery, when the
   * operations up to {@code sequence} are held elsewhere (the engine's durable segments) and the
   * log ends before it (a crash lost records that were written but not yet acknowledged, after
   * the segments holding them became durable).
   *
   * @throws IllegalArgumentException if the log holds records after {@code sequence}
   */
  public void restartAfter(long sequence) throws IOException {
    lock.lock();
    try {
      ensureUsable();
      if (nextSequence - 1 > sequence || reserved > 0) {
        throw new IllegalArgumentException(
            "ingest log " + region.name() + " holds records up to " + (nextSequence - 1) + ", after " + sequence);
      }
      writeHead(new Head(head.generation() + 1, tail, sequence + 1, sequence));
      nextSequence = sequence + 1;
      durableSequence = sequence;
      durablePosition = tail;
      spaceFreed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private CorruptIngestLogException unreadable(long position, long sequence, Decoded decoded) {
    return new CorruptIngestLogException(
        "ingest log is corrupt at " + ring.where(position) + ": acknowledged record " + sequence + " is unreadable ("
            + (decoded.valid() ? "holds record " + decoded.record().sequence() : decoded.detail()) + ")");
  }

  /** Writes {@code newHead} into the slot the current head is not in, persists it, adopts it. */
  private void writeHead(Head newHead) throws IOException {
    int slot = newHead.generation() % 2 == 1 ? IngestLogFormat.SLOT_0 : IngestLogFormat.SLOT_1;
    IngestLogFormat.writeSlot(region.segment(), slot, newHead);
    region.persist(slot, IngestLogFormat.LINE);
    head = newHead;
  }

  /** Sequence number of the oldest record not reclaimed (the next one if the log is empty). */
  public long firstSequence() {
    lock.lock();
    try {
      return head.sequence();
    } finally {
      lock.unlock();
    }
  }

  /** Sequence number of the last acknowledged record (firstSequence() - 1 if the log is empty). */
  public long lastSequence() {
    lock.lock();
    try {
      return durableSequence;
    } finally {
      lock.unlock();
    }
  }

  /** Sequence number of the last record written, durable or not (see {@link #write}). */
  public long lastWritten() {
    lock.lock();
    try {
      return nextSequence - 1;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of the record area held by records not reclaimed. */
  public long usedBytes() {
    lock.lock();
    try {
      return tail - head.position();
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of the record area. */
  public long capacity() {
    return ring.capacity();
  }

  /**
   * Reads the acknowledged records from {@code fromSequence} on, in order, up to the last one
   * acknowledged when this is called.
   *
   * @throws IllegalArgumentException if records from {@code fromSequence} on were reclaimed
   */
  public Cursor read(long fromSequence) {
    lock.lock();
    try {
      if (fromSequence < head.sequence()) {
        throw new IllegalArgumentException(
            "records before " + head.sequence() + " of ingest log " + region.name() + " were reclaimed; cannot read from " + fromSequence);
      }
      return new Cursor(head.position(), head.sequence(), fromSequence, durableSequence);
    } finally {
      lock.unlock();
    }
  }

  /** Iterates over records of the log; see {@link #read}. */
  public final class Cursor {
    private long position;
    private long sequence;
    private final long from;
    private final long last;

    private Cursor(long position, long sequence, long from, long last) {
      this.position = position;
      this.sequence = sequence;
      this.from = from;
      this.last = last;
    }

    /**
     * The next record, or null at the end.
     *
     * @throws CorruptIngestLogException if an acknowledged record no longer reads back
     * @throws IllegalStateException if the log was truncated past this cursor
     */
    public LogRecord next() throws CorruptIngestLogException {
      lock.lock();
      try {
        while (sequence <= last) {
          if (sequence < head.sequence()) {
            throw new IllegalStateException("ingest log " + region.name() + " was truncated past record " + sequence + " while reading it");
          }
          Decoded decoded = IngestLogFormat.decode(ring, position);
          if (!decoded.valid() || decoded.record().sequence() != sequence) {
            throw unreadable(position, sequence, decoded);
          }
          position += decoded.space();
          sequence++;
          if (decoded.record().sequence() >= from) {
            return decoded.record();
          }
        }
        return null;
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Closes the log: records the last acknowledged sequence number in the head (so a later
   * recovery also refuses to lose the last records) and releases the file. Appends waiting for
   * space fail.
   */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      while (persisting) {
        durableAdvanced.awaitUninterruptibly();
      }
      try {
        if (failure == null) {
          writeHead(new Head(head.generation() + 1, head.position(), head.sequence(), durableSequence));
        }
      } finally {
        closed = true;
        spaceFreed.signalAll();
        durableAdvanced.signalAll();
        region.close();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "IngestLog(" + region + ")";
  }
}
