package org.lucenenvm.store;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * An {@link NvmIndexInput} over one contiguous segment: the file (or slice) lies in one extent.
 * Sequential and positional reads are each a single bounds-checked load from that segment, with no
 * segment lookup and no branch on the layout; only a read past the end takes the exception path.
 */
final class SingleSegmentInput extends NvmIndexInput {
  private final MemorySegment segment;

  SingleSegmentInput(String description, MemorySegment segment, Runnable closer) {
    super(description, segment, segment.byteSize(), closer);
    this.segment = segment;
  }

  @Override
  void nextSegment() throws EOFException {
    throw pastEof("read", currentPosition);
  }

  @Override
  void readBytesAcrossSegments(byte[] b, int offset, int len) throws IOException {
    throw pastEof("read", currentPosition + len);
  }

  @Override
  public long getFilePointer() {
    return currentPosition;
  }

  @Override
  public void seek(long pos) throws IOException {
    if (pos < 0 || pos > length) {
      throw new EOFException("seek to " + pos + " outside [0, " + length + "]: " + this);
    }
    currentPosition = pos;
  }

  @Override
  public byte readByte(long pos) throws IOException {
    try {
      return segment.get(BYTE, pos);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public void readBytes(long pos, byte[] b, int offset, int len) throws IOException {
    try {
      MemorySegment.copy(segment, BYTE, pos, b, offset, len);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos + len);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public short readShort(long pos) throws IOException {
    try {
      return segment.get(LE_SHORT, pos);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public int readInt(long pos) throws IOException {
    try {
      return segment.get(LE_INT, pos);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  public long readLong(long pos) throws IOException {
    try {
      return segment.get(LE_LONG, pos);
    } catch (IndexOutOfBoundsException e) {
      throw pastEof("read", pos);
    } catch (IllegalStateException e) {
      throw alreadyClosed(e);
    }
  }

  @Override
  MemorySegment segmentSlice(long pos, long len) {
    return segment.asSlice(pos, len);
  }

  @Override
  public SingleSegmentInput clone() {
    SingleSegmentInput clone = new SingleSegmentInput(toString(), segment, null);
    clone.currentPosition = currentPosition;
    return clone;
  }

  @Override
  NvmIndexInput buildSlice(String description, long offset, long length) {
    return new SingleSegmentInput(description, segment.asSlice(offset, length), null);
  }
}
