package org.lucenenvm.realtime;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Lowers the scheduling priority of the calling thread on Linux ({@code setpriority(PRIO_PROCESS,
 * gettid(), nice)}; Linux keeps a nice value per thread), so that the engine's background stages
 * yield the CPU to threads that answer queries. Java's own thread priorities are ignored by the
 * HotSpot VM on Linux unless it runs as root with {@code -XX:ThreadPriorityPolicy=1}. Raising a
 * thread's nice value needs no privilege. Elsewhere (no {@code gettid} or {@code setpriority}) it
 * does nothing and says so.
 */
final class ThreadNiceness {
  private static final int PRIO_PROCESS = 0;
  private static final MethodHandle GETTID;
  private static final MethodHandle SETPRIORITY;
  private static final MethodHandle GETPRIORITY;

  static {
    GETTID = libcFunction("gettid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    SETPRIORITY =
        libcFunction(
            "setpriority",
            FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    GETPRIORITY =
        libcFunction(
            "getpriority",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
  }

  /** A handle on the C library's function {@code name}, or null where there is none. */
  private static MethodHandle libcFunction(String name, FunctionDescriptor descriptor) {
    Linker linker = Linker.nativeLinker();
    return linker.defaultLookup().find(name).map(f -> linker.downcallHandle(f, descriptor)).orElse(null);
  }

  private ThreadNiceness() {}

  /**
   * Sets the calling thread's nice value to {@code nice} (0 to 19, as {@link
   * RtEngineConfig#backgroundNice} checks) unless it runs at that nice
   * value or a higher one already (a thread's priority is never raised; 0 leaves it as it is).
   *
   * @return empty if the thread now runs at nice {@code nice} or lower priority, else why not
   */
  static Optional<String> applyToCurrentThread(int nice) {
    if (nice == 0) {
      return Optional.empty();
    }
    if (GETTID == null || SETPRIORITY == null || GETPRIORITY == null) {
      return Optional.of("this C library has no gettid/getpriority/setpriority");
    }
    try {
      int tid = (int) GETTID.invokeExact();
      if ((int) GETPRIORITY.invokeExact(PRIO_PROCESS, tid) >= nice) {
        return Optional.empty();
      }
      int rc = (int) SETPRIORITY.invokeExact(PRIO_PROCESS, tid, nice);
      return rc == 0 ? Optional.empty() : Optional.of("setpriority returned " + rc);
    } catch (Throwable t) {
      return Optional.of(t.toString());
    }
  }
}
