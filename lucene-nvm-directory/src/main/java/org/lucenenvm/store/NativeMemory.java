package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The two libc calls the store needs that the JDK does not offer: {@code msync} and page size. */
final class NativeMemory {
  private static final int MS_SYNC = 4;
  private static final int SC_PAGESIZE = 30;
  private static final MethodHandle MSYNC;
  private static final long PAGE_SIZE;

  static {
    Linker linker = Linker.nativeLinker();
    var libc = linker.defaultLookup();
    MSYNC =
        linker.downcallHandle(
            libc.find("msync").orElseThrow(),
            FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    MethodHandle sysconf =
        linker.downcallHandle(
            libc.find("sysconf").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    try {
      PAGE_SIZE = (long) sysconf.invokeExact(SC_PAGESIZE);
    } catch (Throwable t) {
      throw new ExceptionInInitializerError(t);
    }
  }

  private NativeMemory() {}

  static long pageSize() {
    return PAGE_SIZE;
  }

  /** {@code msync(MS_SYNC)} over the pages covering {@code [address, address + length)}. */
  static void msync(long address, long length) throws IOException {
    long start = address & -PAGE_SIZE;
    long len = address + length - start;
    int rc;
    try {
      rc = (int) MSYNC.invokeExact(MemorySegment.ofAddress(start), len, MS_SYNC);
    } catch (Throwable t) {
      throw new IOException("msync failed", t);
    }
    if (rc != 0) {
      throw new IOException("msync of " + len + " bytes at 0x" + Long.toHexString(start) + " failed");
    }
  }
}
