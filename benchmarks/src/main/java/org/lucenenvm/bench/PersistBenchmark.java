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
import org.lucenenvm.store.NvmHeap;
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
 * What one persist barrier costs on the pool as this machine has it: {@code persistDirtyLines}
 * stores into {@code lines} cache lines and persists them (on an emulated pool that is {@code
 * msync} of the page(s) holding them; on a DAX mapping it would be a cache-line write-back per
 * line and a fence), and {@code appendLogRecord} is one acknowledged ingest-log append of a
 * {@code recordBytes} document by one thread (copy, CRC32C, one persist). The pool lives in
 * {@code poolDir}: {@code /dev/shm} (tmpfs) by default, a disk path to see msync reach a device.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class PersistBenchmark {
  private static final long POOL_BYTES = 256L * 1024 * 1024;
  private static final long LOG_CAPACITY = 64L * 1024 * 1024;
  private static final long LINES_REGION = 64L * 1024 * 1024;

  @Param({"/dev/shm"})
  public String poolDir;

  @Param({"1", "16"})
  public int lines;

  @Param({"1024"})
  public int recordBytes;

  private Path work;
  private NvmHeap heap;
  private NvmDirectory dir;
  private IngestLog log;
  private byte[] document;
  private NvmRegion lineRegion;
  private long next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    work = Files.createTempDirectory(Path.of(poolDir), "lucene-nvm-persist-");
    dir = NvmDirectory.open(work.resolve("bench.pool"), POOL_BYTES);
    heap = dir.heap();
    log = IngestLog.open(dir, "ingest.log", LOG_CAPACITY, Duration.ZERO);
    document = new byte[recordBytes];
    lineRegion = dir.createRegion("lines", LINES_REGION);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    IOUtils.close(log, lineRegion, dir); // the directory closes the heap
    IOUtils.rm(work);
  }

  /** Stores a long into each of {@code lines} consecutive cache lines, then one persist over them. */
  @Benchmark
  public long persistDirtyLines() throws IOException {
    long stride = 64L * lines;
    long base = lineRegion.poolOffset() + next++ % (LINES_REGION / stride) * stride;
    for (int i = 0; i < lines; i++) {
      heap.segment().set(ValueLayout.JAVA_LONG, base + 64L * i, next);
    }
    heap.persist(base, 64L * lines);
    return base;
  }

  /** One acknowledged append; the log is truncated whenever it is half full. */
  @Benchmark
  public long appendLogRecord() throws IOException {
    long seq = log.append(LogOperation.ADD, "doc", document);
    if (log.usedBytes() > LOG_CAPACITY / 2) {
      log.truncate(seq);
    }
    return seq;
  }
}
