package org.lucenenvm.realtime;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.lucenenvm.store.NvmRegion;

/**
 * The record area of an {@link IngestLog} as an endless byte sequence: logical position {@code p}
 * lives at {@code p mod capacity} of the area, so a record may wrap around its end. Only
 * addressing lives here; what is written where is {@link IngestLog}'s business.
 */
final class LogRing {
  private final NvmRegion region;
  private final long areaOffset;
  private final long capacity;
  private final MemorySegment area;

  LogRing(NvmRegion region, long areaOffset, long capacity) {
    this.region = region;
    this.areaOffset = areaOffset;
    this.capacity = capacity;
    this.area = region.segment().asSlice(areaOffset, capacity);
  }

  long capacity() {
    return capacity;
  }

  /** Offset of logical position {@code position} in the pool, for messages. */
  long poolOffset(long position) {
    return region.poolOffset() + areaOffset + Math.floorMod(position, capacity);
  }

  /** Describes where {@code position} is, naming the pool and the log file. */
  String where(long position) {
    return "pool " + region.poolPath() + ", log " + region.name() + ", pool offset " + poolOffset(position)
        + " (log position " + position + ")";
  }

  void write(long position, byte[] bytes) {
    long at = Math.floorMod(position, capacity);
    int first = (int) Math.min(bytes.length, capacity - at);
    MemorySegment.copy(bytes, 0, area, ValueLayout.JAVA_BYTE, at, first);
    if (first < bytes.length) {
      MemorySegment.copy(bytes, first, area, ValueLayout.JAVA_BYTE, 0, bytes.length - first);
    }
  }

  byte[] read(long position, int length) {
    byte[] bytes = new byte[length];
    long at = Math.floorMod(position, capacity);
    int first = (int) Math.min(length, capacity - at);
    MemorySegment.copy(area, ValueLayout.JAVA_BYTE, at, bytes, 0, first);
    if (first < length) {
      MemorySegment.copy(area, ValueLayout.JAVA_BYTE, 0, bytes, first, length - first);
    }
    return bytes;
  }

  /** Persists the bytes at logical positions {@code [from, to)} ({@code to - from <= capacity}). */
  void persist(long from, long to) throws IOException {
    if (to <= from) {
      return;
    }
    long at = Math.floorMod(from, capacity);
    long first = Math.min(to - from, capacity - at);
    region.persist(areaOffset + at, first);
    if (first < to - from) {
      region.persist(areaOffset, to - from - first);
    }
  }
}
