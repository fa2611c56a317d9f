package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import jdk.nio.mapmode.ExtendedMapMode;

/**
 * Maps the pool with the JDK's Foreign Function &amp; Memory API. On a DAX file system the mapping
 * is {@code MAP_SYNC} ({@link ExtendedMapMode#READ_WRITE_SYNC}) and {@link MappedPool#persist}
 * writes back cache lines; elsewhere it falls back to an ordinary shared mapping persisted with
 * {@code msync}, and says so once per JVM in the log.
 */
public final class FfmPoolBackend implements PoolBackend {
  private static final Logger LOG = Logger.getLogger(FfmPoolBackend.class.getName());
  private static final AtomicBoolean EMULATION_REPORTED = new AtomicBoolean();

  @Override
  public String name() {
    return "ffm";
  }

  @Override
  public MappedPool map(Path file, FileChannel channel, long size) throws IOException {
    return mapRange(file, channel, 0, size);
  }

  @Override
  public MappedPool mapRange(Path file, FileChannel channel, long offset, long length) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment segment;
      boolean sync;
      try {
        segment = channel.map(ExtendedMapMode.READ_WRITE_SYNC, offset, length, arena);
        sync = true;
      } catch (UnsupportedOperationException | IOException notDax) {
        segment = channel.map(FileChannel.MapMode.READ_WRITE, offset, length, arena);
        sync = false;
        if (EMULATION_REPORTED.compareAndSet(false, true)) {
          LOG.info(
            () ->
                "NVM pool "
                    + file
                    + " is not on a DAX file system (MAP_SYNC refused: "
                    + notDax.getMessage()
                    + "); using a shared mapping persisted with msync (emulation)");
        }
      }
      return new FfmMappedPool(arena, segment, sync);
    } catch (Throwable t) {
      arena.close();
      throw t;
    }
  }

  private record FfmMappedPool(Arena arena, MemorySegment segment, boolean isSynchronous)
      implements MappedPool {
    @Override
    public void persist(long offset, long length) {
      if (length > 0) {
        segment.asSlice(offset, length).force();
      }
    }

    @Override
    public void close() {
      arena.close();
    }
  }
}
