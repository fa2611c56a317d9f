package org.lucenenvm.realtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The on-pool format of an {@link IngestLog}: one file of the engine's {@link
 * org.lucenenvm.store.NvmDirectory}, created as a region (one contiguous extent updated in place).
 * All integers are little endian.
 *
 * <pre>
 * LogFile    --&gt; Header, HeadSlot<sup>2</sup>, Padding, RecordArea
 * Header     --&gt; Magic, Version, HeaderSize, Capacity, HeaderChecksum          (offset 0)
 * Magic      --&gt; 8 bytes, ASCII "LNVMILOG"
 * Version    --&gt; int32, currently 1
 * HeaderSize --&gt; int32, bytes before the RecordArea: 4096
 * Capacity   --&gt; int64, bytes of the RecordArea, a multiple of 64
 * HeaderChecksum --&gt; int64, CRC32C of the preceding 24 bytes
 * HeadSlot   --&gt; Generation, HeadPosition, HeadSequence, AckedThrough, SlotChecksum
 *                (slot 0 at offset 64, slot 1 at offset 128: one cache line each)
 * Generation --&gt; int64, incremented by every head update; the valid slot with the higher one is current
 * HeadPosition --&gt; int64, logical position of the oldest record not reclaimed
 * HeadSequence --&gt; int64, its sequence number (the next one to be written if the log is empty)
 * AckedThrough --&gt; int64, every sequence number up to this one was acknowledged when the slot was written
 * SlotChecksum --&gt; int64, CRC32C of the preceding 32 bytes
 * RecordArea --&gt; Record*, logical position p at byte HeaderSize + (p mod Capacity) of the file
 * Record     --&gt; RecordMagic, Operation, Reserved, Length, Sequence, Position, AckedThrough,
 *                IdLength, DocumentLength, Id, Document, RecordChecksum, Padding
 * RecordMagic --&gt; int32 0x524C4E4C ("LNLR")
 * Operation  --&gt; byte: 1 add, 2 update, 3 delete
 * Reserved   --&gt; 3 zero bytes
 * Length     --&gt; int32, bytes of the record up to and including RecordChecksum
 * Sequence   --&gt; int64, consecutive from the HeadSequence on, starting at 1
 * Position   --&gt; int64, the record's own logical position (tells a record of this lap of the
 *                ring from a stale one of an earlier lap)
 * AckedThrough --&gt; int64, highest sequence number durable (acknowledged) when this record was written
 * IdLength, DocumentLength --&gt; int32 each
 * Id         --&gt; IdLength bytes, UTF-8
 * Document   --&gt; DocumentLength bytes, opaque (empty for a delete)
 * RecordChecksum --&gt; int32, CRC32C of every preceding byte of the record
 * Padding    --&gt; zeros up to the next multiple of 64: records start on cache lines and may wrap
 *                around the end of the RecordArea
 * </pre>
 *
 * <p>Durability: a record is written at the tail and persisted before its append returns
 * (concurrent appends share one persist). The tail itself is not stored: recovery reads records
 * from the head while they are valid (magic, checksum, position and the next sequence number);
 * the first invalid one ends the log. It is a <em>torn tail</em> (a record in flight, never
 * acknowledged) unless something says it was acknowledged: the head slot's AckedThrough, or the
 * AckedThrough of any valid record of this lap found further on. Then the log is corrupt and
 * recovery refuses it, naming the pool, offset and record. Records past a torn tail are cleared
 * before new appends, so a later recovery cannot mistake them for new ones.
 *
 * <p>Reclaiming: {@link IngestLog#truncate} writes the new head into the older slot and persists
 * it; appends never write past HeadPosition + Capacity.
 */
final class IngestLogFormat {
  static final long MAGIC = 0x474F4C494D564E4CL; // "LNVMILOG" little endian
  static final int VERSION = 1;
  static final int HEADER_SIZE = 4096;
  static final int LINE = 64;
  static final int SLOT_0 = 64;
  static final int SLOT_1 = 128;
  static final int RECORD_MAGIC = 0x524C4E4C; // "LNLR" little endian
  static final int RECORD_HEADER = 44;
  static final int MIN_RECORD = RECORD_HEADER + Integer.BYTES;
  private static final int HEADER_CHECKED = 24;
  private static final int SLOT_CHECKED = 32;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private IngestLogFormat() {}

  static long align(long length) {
    return (length + LINE - 1) / LINE * LINE;
  }

  // ---- header ----

  /** Writes the header of a log with a record area of {@code capacity} bytes (magic last). */
  static void writeHeader(MemorySegment file, long capacity) {
    file.set(INT, 8, VERSION);
    file.set(INT, 12, HEADER_SIZE);
    file.set(LONG, 16, capacity);
    ByteBuffer checked = ByteBuffer.allocate(HEADER_CHECKED).order(ByteOrder.LITTLE_ENDIAN);
    checked.putLong(MAGIC).putInt(VERSION).putInt(HEADER_SIZE).putLong(capacity);
    file.set(LONG, 24, crc(checked.array(), 0, HEADER_CHECKED));
  }

  /** Stores the magic that makes a written header valid. */
  static void writeMagic(MemorySegment file) {
    file.set(LONG, 0, MAGIC);
  }

  static boolean isBlank(MemorySegment file) {
    return file.get(LONG, 0) == 0;
  }

  /** What is wrong with the header of {@code file}, or null if it is a valid header. */
  static String headerProblem(MemorySegment file) {
    if (file.get(LONG, 0) != MAGIC) {
      return "not an ingest log (bad magic)";
    }
    byte[] checked = new byte[HEADER_CHECKED];
    MemorySegment.copy(file, ValueLayout.JAVA_BYTE, 0, checked, 0, HEADER_CHECKED);
    if (file.get(LONG, 24) != crc(checked, 0, HEADER_CHECKED)) {
      return "header checksum mismatch";
    }
    if (file.get(INT, 8) != VERSION) {
      return "log format version " + file.get(INT, 8) + ", this build reads " + VERSION;
    }
    long capacity = capacity(file);
    if (file.get(INT, 12) != HEADER_SIZE
        || capacity <= 0
        || capacity % LINE != 0
        || HEADER_SIZE + capacity > file.byteSize()) {
      return "header has impossible sizes";
    }
    return null;
  }

  /** The capacity stored in a valid header. */
  static long capacity(MemorySegment file) {
    return file.get(LONG, 16);
  }

  // ---- head slots ----

  /** A head slot's content. */
  record Head(long generation, long position, long sequence, long ackedThrough) {}

  static void writeSlot(MemorySegment file, int slotOffset, Head head) {
    ByteBuffer slot = ByteBuffer.allocate(SLOT_CHECKED + Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    slot.putLong(head.generation()).putLong(head.position()).putLong(head.sequence()).putLong(head.ackedThrough());
    slot.putLong(crc(slot.array(), 0, SLOT_CHECKED));
    MemorySegment.copy(MemorySegment.ofArray(slot.array()), 0, file, slotOffset, slot.capacity());
  }

  /** The slot at {@code slotOffset}, or null if it fails its checksum. */
  static Head readSlot(MemorySegment file, int slotOffset) {
    byte[] slot = new byte[SLOT_CHECKED + Long.BYTES];
    MemorySegment.copy(file, ValueLayout.JAVA_BYTE, slotOffset, slot, 0, slot.length);
    ByteBuffer buf = ByteBuffer.wrap(slot).order(ByteOrder.LITTLE_ENDIAN);
    if (buf.getLong(SLOT_CHECKED) != crc(slot, 0, SLOT_CHECKED) || buf.getLong(0) == 0) {
      return null;
    }
    return new Head(buf.getLong(0), buf.getLong(8), buf.getLong(16), buf.getLong(24));
  }

  // ---- records ----

  /** Encodes a record, padded to whole cache lines. */
  static byte[] encode(
      long sequence, long position, long ackedThrough, LogOperation operation, byte[] id, byte[] document) {
    int length = MIN_RECORD + id.length + document.length;
    ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(align(length))).order(ByteOrder.LITTLE_ENDIAN);
    buf.putInt(RECORD_MAGIC).put(operation.code()).put((byte) 0).putShort((short) 0).putInt(length);
    buf.putLong(sequence).putLong(position).putLong(ackedThrough);
    buf.putInt(id.length).putInt(document.length).put(id).put(document);
    buf.putInt((int) crc(buf.array(), 0, length - Integer.BYTES));
    return buf.array();
  }

  /** Bytes a record with these payloads takes in the ring. */
  static long recordSpace(int idBytes, int documentBytes) {
    return align((long) MIN_RECORD + idBytes + documentBytes);
  }

  /** Why the bytes at a position are not a valid record. */
  enum Problem {
    /** No record starts there (no record magic): the normal end of the log, or a lost store. */
    NO_RECORD,
    /** A whole record of an earlier lap of the ring: the normal end of the log. */
    STALE,
    /** A record magic with a bad length, checksum, field or sequence number. */
    DAMAGED
  }

  /**
   * What {@link #decode} found at a position: a record (with the bytes it takes and its
   * AckedThrough), or the problem that makes it no record.
   */
  record Decoded(LogRecord record, long space, long ackedThrough, Problem problem, String detail) {
    boolean valid() {
      return problem == null;
    }

    static Decoded invalid(Problem problem, String detail) {
      return new Decoded(null, 0, 0, problem, detail);
    }
  }

  /**
   * Decodes the record at logical {@code position}: valid if its magic, length, checksum, operation
   * and Position field check out (the sequence number is the caller's to check).
   */
  static Decoded decode(LogRing ring, long position) {
    ByteBuffer head = ByteBuffer.wrap(ring.read(position, RECORD_HEADER)).order(ByteOrder.LITTLE_ENDIAN);
    if (head.getInt(0) != RECORD_MAGIC) {
      return Decoded.invalid(Problem.NO_RECORD, "no record magic");
    }
    int length = head.getInt(8);
    if (length < MIN_RECORD || length > ring.capacity()) {
      return Decoded.invalid(Problem.DAMAGED, "impossible record length " + length);
    }
    byte[] bytes = ring.read(position, length);
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if ((int) crc(bytes, 0, length - Integer.BYTES) != buf.getInt(length - Integer.BYTES)) {
      return Decoded.invalid(Problem.DAMAGED, "record checksum mismatch");
    }
    long recordPosition = buf.getLong(20);
    if (recordPosition != position) {
      return Decoded.invalid(Problem.STALE, "record written for log position " + recordPosition);
    }
    LogOperation operation = LogOperation.fromCode(buf.get(4));
    int idLength = buf.getInt(36);
    int documentLength = buf.getInt(40);
    if (operation == null || idLength < 0 || documentLength < 0 || (long) MIN_RECORD + idLength + documentLength != length) {
      return Decoded.invalid(Problem.DAMAGED, "record fields inconsistent (operation code " + buf.get(4) + ")");
    }
    String id = new String(bytes, RECORD_HEADER, idLength, StandardCharsets.UTF_8);
    byte[] document = Arrays.copyOfRange(bytes, RECORD_HEADER + idLength, RECORD_HEADER + idLength + documentLength);
    LogRecord record = new LogRecord(buf.getLong(12), operation, id, document);
    return new Decoded(record, align(length), buf.getLong(28), null, null);
  }

  /** True if a record magic starts at {@code position} (cheap pre-check before decoding). */
  static boolean hasRecordMagic(LogRing ring, long position) {
    ByteBuffer magic = ByteBuffer.wrap(ring.read(position, Integer.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
    return magic.getInt(0) == RECORD_MAGIC;
  }

  private static long crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return crc.getValue();
  }
}
