package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * Writes an {@link NvmDirectory} file in place: bytes are stored straight into extents of the
 * pool, with no intermediate buffer and no system call. The checksum is a CRC32 kept up to date
 * lazily over the bytes already in the pool, using the hardware-accelerated CRC32 over memory.
 *
 * <p>A closed file should be one contiguous extent, so that it reads through {@link
 * SingleSegmentInput} and Lucene gets a whole-file segment from {@link
 * NvmIndexInput#segmentSliceOrNull}. Several outputs are open at once during every flush and merge,
 * so extents of different files would interleave if each grew from a small start. Hence:
 *
 * <ol>
 *   <li>The first extent is sized from the {@link IOContext}: for a flush or a merge, the size
 *       Lucene estimates for the whole segment ({@link org.apache.lucene.store.FlushInfo},
 *       {@link org.apache.lucene.store.MergeInfo}), at most a sixteenth of the free space and at
 *       most {@value #MAX_EXTENT} bytes; otherwise {@value #FIRST_EXTENT} bytes. The unused tail
 *       is returned on close, so this reserves space only while the file is written.
 *   <li>When an extent fills up it is grown in place if the space after it is free, otherwise a
 *       new extent twice the file's size (capped) is started.
 *   <li>On close, a file left in several extents is copied into one new extent if the pool has a
 *       free range that large, and its old extents are freed. This happens before the file is
 *       visible and long before {@link NvmDirectory#sync} persists and publishes it, so the durable
 *       file table only ever names the final extents. Without such a range the file keeps its
 *       extents and reads through {@link MultiSegmentInput}.
 * </ol>
 */
final class NvmIndexOutput extends IndexOutput {
  private static final long FIRST_EXTENT = 16 * 1024;
  private static final long MAX_EXTENT = 64L * 1024 * 1024;
  /** A first extent takes at most this fraction of the free space, so concurrent outputs fit. */
  private static final int FREE_SPACE_SHARE = 16;

  private final NvmDirectory directory;
  private final ExtentAllocator allocator;
  private final NvmHeap heap;
  private final long firstExtent;
  private final List<long[]> extents = new ArrayList<>(); // {offset, capacity, used}
  private final CRC32 crc = new CRC32();
  private long checksummed;
  private MemorySegment current = MemorySegment.NULL;
  private long position; // within current
  private long filePointer;
  private boolean closed;

  NvmIndexOutput(
      String name, IOContext context, NvmDirectory directory, ExtentAllocator allocator, NvmHeap heap) {
    super("NvmIndexOutput(" + directory.heap().path() + ":" + name + ")", name);
    this.directory = directory;
    this.allocator = allocator;
    this.heap = heap;
    this.firstExtent = firstExtentSize(context, allocator.freeBytes());
  }

  /** Bytes to reserve for the first extent of a file written in {@code context}. */
  static long firstExtentSize(IOContext context, long freeBytes) {
    long estimate =
        switch (context.context()) {
          case FLUSH -> context.flushInfo() == null ? 0 : context.flushInfo().estimatedSegmentSize();
          case MERGE -> context.mergeInfo() == null ? 0 : context.mergeInfo().estimatedMergeBytes();
          case DEFAULT -> 0;
        };
    long bounded = Math.min(Math.min(estimate, MAX_EXTENT), freeBytes / FREE_SPACE_SHARE);
    return ExtentAllocator.blocks(Math.max(FIRST_EXTENT, bounded));
  }

  private void grow() throws IOException {
    long want = extents.isEmpty() ? firstExtent : Math.min(MAX_EXTENT, Math.max(FIRST_EXTENT, filePointer));
    if (!extents.isEmpty()) {
      long[] last = extents.getLast();
      if (allocator.tryExtend(last[0], last[1], last[1] + want)) {
        last[1] += want;
        current = heap.segment(last[0], last[1]);
        return;
      }
      last[2] = position;
    }
    long offset;
    try {
      offset = allocator.allocate(want);
    } catch (PoolFullException full) {
      // A nearly full or fragmented pool (which could not grow) may still have room for a smaller
      // extent.
      want = allocator.largestFree();
      if (want < ExtentAllocator.BLOCK) {
        throw full;
      }
      offset = allocator.allocateWithoutGrowth(want);
    }
    extents.add(new long[] {offset, ExtentAllocator.blocks(want), 0});
    current = heap.segment(offset, ExtentAllocator.blocks(want));
    position = 0;
  }

  @Override
  public void writeByte(byte b) throws IOException {
    if (position == current.byteSize()) {
      grow();
    }
    current.set(NvmIndexInput.BYTE, position++, b);
    filePointer++;
  }

  @Override
  public void writeBytes(byte[] b, int offset, int length) throws IOException {
    while (length > 0) {
      if (position == current.byteSize()) {
        grow();
      }
      int chunk = (int) Math.min(length, current.byteSize() - position);
      MemorySegment.copy(b, offset, current, NvmIndexInput.BYTE, position, chunk);
      position += chunk;
      filePointer += chunk;
      offset += chunk;
      length -= chunk;
    }
  }

  @Override
  public void writeShort(short i) throws IOException {
    if (current.byteSize() - position >= Short.BYTES) {
      current.set(NvmIndexInput.LE_SHORT, position, i);
      position += Short.BYTES;
      filePointer += Short.BYTES;
    } else {
      super.writeShort(i);
    }
  }

  @Override
  public void writeInt(int i) throws IOException {
    if (current.byteSize() - position >= Integer.BYTES) {
      current.set(NvmIndexInput.LE_INT, position, i);
      position += Integer.BYTES;
      filePointer += Integer.BYTES;
    } else {
      super.writeInt(i);
    }
  }

  @Override
  public void writeLong(long i) throws IOException {
    if (current.byteSize() - position >= Long.BYTES) {
      current.set(NvmIndexInput.LE_LONG, position, i);
      position += Long.BYTES;
      filePointer += Long.BYTES;
    } else {
      super.writeLong(i);
    }
  }

  @Override
  public long getFilePointer() {
    return filePointer;
  }

  /** Brings the CRC32 up to the current file pointer by reading back what is in the pool. */
  @Override
  public long getChecksum() {
    long skipped = 0;
    for (int i = 0; i < extents.size() && checksummed < filePointer; i++) {
      long[] extent = extents.get(i);
      long used = i == extents.size() - 1 ? position : extent[2];
      long from = checksummed - skipped;
      if (from < used) {
        crc.update(heap.segment(extent[0] + from, used - from).asByteBuffer());
        checksummed += used - from;
      }
      skipped += used;
    }
    return crc.getValue();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (!extents.isEmpty()) {
      long[] last = extents.getLast();
      last[2] = position;
      long keep = ExtentAllocator.blocks(position);
      allocator.free(last[0] + keep, last[1] - keep);
      last[1] = keep;
    }
    extents.removeIf(extent -> extent[2] == 0);
    if (extents.size() > 1) {
      coalesce();
    }
    long[] offsets = new long[extents.size()];
    long[] lengths = new long[extents.size()];
    for (int i = 0; i < extents.size(); i++) {
      offsets[i] = extents.get(i)[0];
      lengths[i] = extents.get(i)[2];
    }
    directory.outputClosed(this, new NvmFile(offsets, lengths, false));
  }

  /**
   * Copies the file into one new extent and frees the old ones; leaves the extents as they are if
   * the pool has no free range that large (the pool does not grow for this).
   */
  private void coalesce() {
    long offset;
    try {
      offset = allocator.allocateWithoutGrowth(filePointer);
    } catch (PoolFullException noContiguousRoom) {
      return;
    }
    MemorySegment target = heap.segment(offset, filePointer);
    long copied = 0;
    for (long[] extent : extents) {
      MemorySegment.copy(heap.segment(extent[0], extent[2]), 0, target, copied, extent[2]);
      copied += extent[2];
    }
    for (long[] extent : extents) {
      allocator.free(extent[0], extent[1]);
    }
    extents.clear();
    extents.add(new long[] {offset, ExtentAllocator.blocks(filePointer), filePointer});
  }
}
