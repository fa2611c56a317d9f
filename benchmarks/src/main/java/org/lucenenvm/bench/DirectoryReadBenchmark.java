package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.RandomAccessInput;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reads of one large file through {@code NvmDirectory} and {@code MMapDirectory} on the same
 * tmpfs: sequential (bulk bytes and longs), random (positional longs and short byte runs), and
 * the two ways postings code reads a 1 KiB block of 256 little-endian ints: a bulk {@code
 * readInts} into an array, and loads from the {@link MemorySegment} that {@link
 * MemorySegmentAccessInput#segmentSliceOrNull} hands out (what Lucene's vectorized decoding reads
 * from).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class DirectoryReadBenchmark {
  private static final int RANDOM_READS = 1 << 16;
  private static final int BLOCK_INTS = 256;
  private static final ValueLayout.OfInt LE_INT =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  @Param({"nvm", "mmap"})
  public String directory;

  @Param({"268435456"})
  public long fileBytes;

  private Path work;
  private Directory dir;
  private IndexInput input;
  private RandomAccessInput randomAccess;
  private MemorySegmentAccessInput segmentAccess;
  private long[] positions;
  /** 4-byte aligned, with room for a block of ints after each. */
  private long[] blockPositions;
  private final int[] ints = new int[BLOCK_INTS];
  private final byte[] chunk = new byte[4096];
  private final byte[] run = new byte[64];
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    work = DirectoryBenchmarkState.workDir("read");
    dir = DirectoryBenchmarkState.open(directory, work, fileBytes + (64L << 20));
    Random random = new Random(0);
    byte[] block = new byte[1 << 20];
    try (IndexOutput out = dir.createOutput("big.bin", IOContext.DEFAULT)) {
      for (long written = 0; written < fileBytes; written += block.length) {
        random.nextBytes(block);
        out.writeBytes(block, (int) Math.min(block.length, fileBytes - written));
      }
    }
    input = dir.openInput("big.bin", IOContext.DEFAULT);
    randomAccess = input.randomAccessSlice(0, input.length());
    if (!(input instanceof MemorySegmentAccessInput access)) {
      throw new IllegalStateException(directory + " inputs are not MemorySegmentAccessInputs: " + input);
    }
    segmentAccess = access;
    positions = new long[RANDOM_READS];
    blockPositions = new long[RANDOM_READS];
    for (int i = 0; i < RANDOM_READS; i++) {
      positions[i] = (long) (random.nextDouble() * (fileBytes - run.length));
      blockPositions[i] = (long) (random.nextDouble() * (fileBytes - BLOCK_INTS * Integer.BYTES)) & ~3L;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    input.close();
    DirectoryBenchmarkState.delete(dir, work);
  }

  /** One 4 KiB {@code readBytes}, walking the file sequentially (wrapping around). */
  @Benchmark
  public byte sequentialReadBytes4k() throws IOException {
    if (input.getFilePointer() + chunk.length > input.length()) {
      input.seek(0);
    }
    input.readBytes(chunk, 0, chunk.length);
    return chunk[0];
  }

  /** 512 sequential {@code readLong}s (4 KiB), walking the file (wrapping around). */
  @Benchmark
  public long sequentialReadLongs4k() throws IOException {
    if (input.getFilePointer() + 4096 > input.length()) {
      input.seek(0);
    }
    long sum = 0;
    for (int i = 0; i < 512; i++) {
      sum += input.readLong();
    }
    return sum;
  }

  /** One positional {@code readLong} at a random offset ({@code RandomAccessInput}). */
  @Benchmark
  public long randomReadLong() throws IOException {
    return randomAccess.readLong(positions[next++ & (RANDOM_READS - 1)]);
  }

  /** A seek to a random offset and a 64-byte {@code readBytes}. */
  @Benchmark
  public void randomSeekRead64(Blackhole bh) throws IOException {
    input.seek(positions[next++ & (RANDOM_READS - 1)]);
    input.readBytes(run, 0, run.length);
    bh.consume(run);
  }

  /** A seek to a random offset and one bulk {@code readInts} of a 256-int block. */
  @Benchmark
  public int randomBlockReadInts() throws IOException {
    input.seek(blockPositions[next++ & (RANDOM_READS - 1)]);
    input.readInts(ints, 0, BLOCK_INTS);
    return ints[0] + ints[BLOCK_INTS - 1];
  }

  /**
   * A {@code segmentSliceOrNull} of a random 256-int block and a sum over it, loaded straight from
   * the segment (no copy into an array).
   */
  @Benchmark
  public int randomBlockSegmentSum() throws IOException {
    MemorySegment block =
        segmentAccess.segmentSliceOrNull(blockPositions[next++ & (RANDOM_READS - 1)], BLOCK_INTS * Integer.BYTES);
    int sum = 0;
    for (int i = 0; i < BLOCK_INTS; i++) {
      sum += block.get(LE_INT, (long) i * Integer.BYTES);
    }
    return sum;
  }
}
