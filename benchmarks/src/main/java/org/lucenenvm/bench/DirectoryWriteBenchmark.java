package org.lucenenvm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
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
 * Writing and syncing a segment-sized file (checksum footer included, as a codec would) through
 * {@code NvmDirectory}, {@code MMapDirectory} and {@code NIOFSDirectory} on the same tmpfs, then
 * deleting it. Writes come in the mix a codec produces: 8 KiB blocks and single longs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class DirectoryWriteBenchmark {

  @Param({"nvm", "mmap", "niofs"})
  public String directory;

  @Param({"67108864"})
  public long fileBytes;

  private Path work;
  private Directory dir;
  private final byte[] block = new byte[8192];
  private int file;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    work = DirectoryBenchmarkState.workDir("write");
    dir = DirectoryBenchmarkState.open(directory, work, 4 * fileBytes);
    new Random(0).nextBytes(block);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    DirectoryBenchmarkState.delete(dir, work);
  }

  /** Create, write {@code fileBytes}, write the checksum, close, sync, delete. */
  @Benchmark
  public long writeSyncSegmentFile() throws IOException {
    String name = "_" + (file++) + ".bin";
    long checksum;
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      for (long written = 0; written < fileBytes; written += block.length + 8 * Long.BYTES) {
        out.writeBytes(block, block.length);
        for (int i = 0; i < 8; i++) {
          out.writeLong(written + i);
        }
      }
      checksum = out.getChecksum();
      out.writeLong(checksum);
    }
    dir.sync(List.of(name));
    dir.deleteFile(name);
    return checksum;
  }
}
