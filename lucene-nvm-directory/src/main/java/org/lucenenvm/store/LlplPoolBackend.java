package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Maps the pool through Intel's llpl ({@code com.intel.pmem.llpl.MemoryPool}, which calls PMDK's
 * {@code pmem_map_file}) and persists with llpl's {@code flush} ({@code pmem_persist}). Needs
 * Debian's {@code libpmemobj1} and {@code libpmempool1}; {@link #unavailableReason()} says why it
 * cannot load when it cannot.
 *
 * <p>llpl exposes no address for zero-copy access, so this backend reads the mapping's address
 * from llpl's implementation class; reads and writes then go through a {@link MemorySegment} over
 * that address, exactly as with {@link FfmPoolBackend}. {@code pmem_persist} only writes back CPU
 * caches, which is durable on real persistent memory alone; on an emulated pool this backend also
 * calls {@code msync}, unless {@code PMEM_IS_PMEM_FORCE=1} declares the file persistent memory.
 */
public final class LlplPoolBackend implements PoolBackend {
  private static final String POOL_CLASS = "com.intel.pmem.llpl.MemoryPool";
  private static final String POOL_IMPL_CLASS = "com.intel.pmem.llpl.MemoryPoolImpl";

  @Override
  public String name() {
    return "llpl";
  }

  /** Null if llpl and its native libraries load here, otherwise the reason they do not. */
  public static String unavailableReason() {
    try {
      Class.forName(POOL_IMPL_CLASS, true, LlplPoolBackend.class.getClassLoader());
      return null;
    } catch (ClassNotFoundException e) {
      return "llpl (com.intel.pmem:llpl) is not on the class path";
    } catch (LinkageError e) {
      return "llpl's native library does not load ("
          + e
          + "); install Debian's libpmemobj1 and libpmempool1";
    }
  }

  @Override
  public MappedPool map(Path file, FileChannel channel, long size) throws IOException {
    String reason = unavailableReason();
    if (reason != null) {
      throw new IOException("cannot map NVM pool " + file + " with llpl: " + reason);
    }
    try {
      Class<?> poolClass = Class.forName(POOL_CLASS);
      Class<?> implClass = Class.forName(POOL_IMPL_CLASS);
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(implClass, MethodHandles.lookup());
      Object pool =
          MethodHandles.publicLookup()
              .findStatic(poolClass, "openPool", MethodType.methodType(poolClass, String.class))
              .invoke(file.toString());
      VarHandle address = lookup.findVarHandle(implClass, "poolAddress", long.class);
      MethodHandle flush =
          lookup.findVirtual(
              implClass, "flush", MethodType.methodType(void.class, long.class, long.class));
      MethodHandle close = lookup.findVirtual(implClass, "close", MethodType.methodType(void.class));
      long poolSize = (long) lookup.findVirtual(implClass, "size", MethodType.methodType(long.class)).invoke(pool);
      if (poolSize < size) {
        close.invoke(pool);
        throw new IOException(
            "llpl mapped " + poolSize + " bytes of NVM pool " + file + ", expected " + size);
      }
      long base = (long) address.get(pool);
      Arena arena = Arena.ofShared();
      MemorySegment segment = MemorySegment.ofAddress(base).reinterpret(size, arena, null);
      boolean pmem = "1".equals(System.getenv("PMEM_IS_PMEM_FORCE"));
      return new LlplMappedPool(pool, arena, segment, flush, close, pmem);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException("cannot map NVM pool " + file + " with llpl: " + t, t);
    }
  }

  private static final class LlplMappedPool implements MappedPool {
    private final Object pool;
    private final Arena arena;
    private final MemorySegment segment;
    private final MethodHandle flush;
    private final MethodHandle close;
    private final boolean synchronous;
    private volatile boolean closed;

    LlplMappedPool(
        Object pool,
        Arena arena,
        MemorySegment segment,
        MethodHandle flush,
        MethodHandle close,
        boolean pmem) {
      this.pool = pool;
      this.arena = arena;
      this.segment = segment;
      this.flush = flush;
      this.close = close;
      this.synchronous = pmem;
    }

    @Override
    public MemorySegment segment() {
      return segment;
    }

    @Override
    public void persist(long offset, long length) throws IOException {
      if (length <= 0) {
        return;
      }
      try {
        flush.invoke(pool, offset, length);
      } catch (Throwable t) {
        throw new IOException("llpl flush failed", t);
      }
      if (!synchronous) {
        NativeMemory.msync(segment.address() + offset, length);
      }
    }

    @Override
    public boolean isSynchronous() {
      return synchronous;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      arena.close();
      try {
        close.invoke(pool);
      } catch (Throwable t) {
        throw new IOException("llpl failed to unmap the pool", t);
      }
    }
  }
}
