package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.util.IOUtils;
import org.lucenenvm.realtime.IngestLog;
import org.lucenenvm.realtime.LogOperation;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmRegion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one persist barrier costs on the pool as this machine has it. {@code persistDirtyLines}
 * stores into {@code lines} cache lines and persists them: on an emulated pool that is an {@code
 * msync} of the page(s) holding them; on a DAX mapping it would be a cache-line write-back per
 * line and a fence, which this benchmark cannot show without one. {@code appendLogRecord} is one
 * acknowledged ingest-log append of a {@code recordBytes} document by one thread (copy, CRC32C,
 * one persist). The pool lives in {@code poolDir}: {@code /dev/shm} (tmpfs) by default, a disk
 * directory to see msync reach a device.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class PersistBenchmark {
  private static final long POOL_BYTES = 256L * 1024 * 1024;
  private static final long REGION_BYTES = 64L * 1024 * 1024;

  /** A pool in {@code poolDir}, removed after the trial. */
  @State(Scope.Thread)
  public static class Pool {
    @Param({"/dev/shm"})
    public String poolDir;

    Path work;
    NvmDirectory dir;

    @Setup(Level.Trial)
    public void openPool() throws IOException {
      work = Files.createTempDirectory(Path.of(poolDir), "lucene-nvm-persist-");
      dir = NvmDirectory.open(work.resolve("bench.pool"), POOL_BYTES);
    }

    @TearDown(Level.Trial)
    public void deletePool() throws IOException {
      IOUtils.close(dir); // closes the heap too
      IOUtils.rm(work);
    }
  }

  /** A region of {@code lines}-line slots, stored into and persisted one slot at a time. */
  @State(Scope.Thread)
  public static class Lines {
    @Param({"1", "16"})
    public int lines;

    NvmRegion region;
    long next;

    @Setup(Level.Trial)
    public void create(Pool pool) throws IOException {
      region = pool.dir.createRegion("lines", REGION_BYTES);
    }

    @TearDown(Level.Trial)
    public void close() {
      region.close();
    }
  }

  /** An ingest log, truncated whenever it is half full. */
  @State(Scope.Thread)
  public static class Log {
    @Param({"1024"})
    public int recordBytes;

    IngestLog log;
    byte[] document;

    @Setup(Level.Trial)
    public void open(Pool pool) throws IOException {
      log = IngestLog.open(pool.dir, "ingest.log", REGION_BYTES, Duration.ZERO);
      document = new byte[recordBytes];
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      log.close();
    }
  }

  /** Stores a long into each of {@code lines} consecutive cache lines, then one persist over them. */
  @Benchmark
  public long persistDirtyLines(Lines state) throws IOException {
    long stride = 64L * state.lines;
    long base = state.next++ % (REGION_BYTES / stride) * stride;
    for (int i = 0; i < state.lines; i++) {
      state.region.segment().set(ValueLayout.JAVA_LONG, base + 64L * i, state.next);
    }
    state.region.persist(base, stride);
    return base;
  }

  /** One acknowledged append. */
  @Benchmark
  public long appendLogRecord(Log state) throws IOException {
    long seq = state.log.append(LogOperation.ADD, "doc", state.document);
    if (state.log.usedBytes() > state.log.capacity() / 2) {
      state.log.truncate(seq);
    }
    return seq;
  }
}
