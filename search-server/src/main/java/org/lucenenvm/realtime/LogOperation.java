package org.lucenenvm.realtime;

/** The operation an {@link IngestLog} record describes, with its one-byte code in the log. */
public enum LogOperation {
  /** A new document. */
  ADD(1),
  /** A document replacing the one with the same id. */
  UPDATE(2),
  /** Removal of the document with the id; the record carries no document bytes. */
  DELETE(3);

  private final byte code;

  LogOperation(int code) {
    this.code = (byte) code;
  }

  /** The code stored in a record. */
  byte code() {
    return code;
  }

  /** The operation stored as {@code code}, or null if no operation has that code. */
  static LogOperation fromCode(byte code) {
    for (LogOperation op : values()) {
      if (op.code == code) {
        return op;
      }
    }
    return null;
  }
}
