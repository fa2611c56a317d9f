package org.lucenenvm.realtime;

/**
 * One operation read back from an {@link IngestLog}: its sequence number, the operation, the
 * document id and the document bytes (empty for a delete).
 */
public record LogRecord(long sequence, LogOperation operation, String id, byte[] document) {}
