package org.lucenenvm.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.function.LongPredicate;

/**
 * Test mode of the heap that simulates power failures, in the spirit of PMDK's pmreorder: a {@link
 * PoolBackend} wrapper (pass it to {@link NvmHeap#open(Path, long, NvmHeap.OpenMode,
 * PoolBackend)}) that keeps a <em>durable image</em> of the pool next to the real mapping.
 *
 * <ul>
 *   <li>When the pool is mapped, the durable image is a copy of the file (what survived so far).
 *   <li>Every {@link MappedPool#persist persist(offset, length)} copies the cache lines (64 B) that
 *       cover the range from the mapping into the durable image, as {@code clwb}+{@code sfence}
 *       would make them durable.
 *   <li>A <em>crash point</em> is the moment a persist call starts (its own range not yet durable)
 *       or any moment the test asks for with {@link #crashPointNow()}. At a crash point the
 *       <em>dirty lines</em> are the cache lines where the mapping differs from the durable image:
 *       stores the program made that the hardware may or may not have written back. A power
 *       failure leaves the durable image plus any subset of the dirty lines, each as it is in
 *       the mapping; {@link CrashPoint#writeImage} writes such a pool file (none, all, or a random
 *       subset).
 * </ul>
 *
 * <p>A pool that grows while open ({@link NvmHeap#grow}) is watched as a whole: each chunk the
 * heap maps ({@link PoolBackend#mapRange}) gets a durable image of its own (a copy of the file's
 * range when it is mapped: the zeros of the extension), crash points number the persists of every
 * chunk, and the images written hold every chunk at its offset.
 *
 * <p>Limits: a dirty line is replayed with its content at the crash point, not with an earlier
 * intermediate content (two unpersisted stores to one line are kept or lost together, so stores
 * within a line are never reordered), and the stores inside a line are never torn (x86 writes
 * back whole lines) unless {@link CrashPoint#writeTornImage} asks for 8-byte granularity; an
 * aligned 8-byte store is never torn. Persist calls are serialized while the simulator is
 * attached. Memory: one extra pool-sized buffer off heap.
 */
public final class PowerFailureSimulator implements PoolBackend {
  /** Cache-line size: the granularity at which unpersisted stores survive or are lost. */
  public static final int LINE = 64;

  /** Failure-atomic store size: the granularity of {@link CrashPoint#writeTornImage}. */
  public static final int WORD = 8;

  /** Called at every crash point, on the thread that called persist, before the persist acts. */
  @FunctionalInterface
  public interface CrashPointListener {
    void atCrashPoint(CrashPoint point) throws IOException;
  }

  private final PoolBackend delegate;
  private final CrashPointListener listener;
  /** The chunks of the watched pool, in pool order; empty when none is mapped. */
  private SimulatedChunk[] chunks = new SimulatedChunk[0];
  private long persists;

  /** Simulates power failures on pools mapped by {@code delegate}, reporting each persist. */
  public PowerFailureSimulator(PoolBackend delegate, CrashPointListener listener) {
    this.delegate = delegate;
    this.listener = listener;
  }

  /** Simulates power failures on the default (FFM) backend. */
  public PowerFailureSimulator(CrashPointListener listener) {
    this(new FfmPoolBackend(), listener);
  }

  @Override
  public String name() {
    return "simulated-" + delegate.name();
  }

  @Override
  public synchronized MappedPool map(Path file, FileChannel channel, long size) throws IOException {
    if (chunks.length > 0) {
      throw new IllegalStateException("a power-failure simulator watches one pool at a time");
    }
    persists = 0;
    return addChunk(0, delegate.map(file, channel, size));
  }

  @Override
  public synchronized MappedPool mapRange(Path file, FileChannel channel, long offset, long length)
      throws IOException {
    if (chunks.length == 0 || offset != chunks[chunks.length - 1].end()) {
      throw new IllegalStateException("a chunk must extend the watched pool, got one at " + offset);
    }
    return addChunk(offset, delegate.mapRange(file, channel, offset, length));
  }

  private MappedPool addChunk(long start, MappedPool mapped) {
    SimulatedChunk chunk = new SimulatedChunk(start, mapped);
    chunks = Arrays.copyOf(chunks, chunks.length + 1);
    chunks[chunks.length - 1] = chunk;
    return chunk;
  }

  /** Number of persist calls made so far (each one was a crash point). */
  public synchronized long persistCount() {
    return persists;
  }

  /** A crash point at this moment: the stores not persisted so far are the dirty lines. */
  public synchronized CrashPoint crashPointNow() {
    if (chunks.length == 0) {
      throw new IllegalStateException("no pool mapped yet");
    }
    return new CrashPoint(chunks.clone(), persists);
  }

  /** The state of one crash point; valid only during the listener call (or until the next persist). */
  public static final class CrashPoint {
    private final SimulatedChunk[] chunks;
    private final long index;
    private long[] dirtyLines;

    private CrashPoint(SimulatedChunk[] chunks, long index) {
      this.chunks = chunks;
      this.index = index;
    }

    /** Number of persist calls completed before this crash point. */
    public long index() {
      return index;
    }

    /** Line numbers (offset / 64) where the mapping differs from the durable image, ascending. */
    public long[] dirtyLines() {
      if (dirtyLines == null) {
        long[] lines = new long[16];
        int count = 0;
        for (SimulatedChunk chunk : chunks) {
          for (long line : chunk.dirtyLines()) {
            if (count == lines.length) {
              lines = Arrays.copyOf(lines, count * 2);
            }
            lines[count++] = line;
          }
        }
        dirtyLines = Arrays.copyOf(lines, count);
      }
      return dirtyLines.clone();
    }

    /** The chunk holding pool offset {@code offset}. */
    private SimulatedChunk chunkAt(long offset) {
      int i = chunks.length - 1;
      while (chunks[i].start > offset) {
        i--;
      }
      return chunks[i];
    }

    /**
     * Word numbers (offset / 8) of the aligned 8-byte words where the mapping differs from the
     * durable image, ascending.
     */
    public long[] dirtyWords() {
      long[] words = new long[16];
      int count = 0;
      for (long line : dirtyLines()) {
        SimulatedChunk chunk = chunkAt(line * LINE);
        long end = Math.min((line + 1) * LINE, chunk.end());
        for (long offset = line * LINE; offset < end; offset += WORD) {
          if (chunk.differs(offset, Math.min(WORD, end - offset))) {
            if (count == words.length) {
              words = Arrays.copyOf(words, count * 2);
            }
            words[count++] = offset / WORD;
          }
        }
      }
      return Arrays.copyOf(words, count);
    }


    /**
     * Writes the pool a power failure at this point could leave to {@code target}: the durable
     * image plus the dirty lines that {@code survives} accepts (a line number).
     */
    public void writeImage(Path target, LongPredicate survives) throws IOException {
      writeImage(target, LINE, survives);
    }

    /**
     * Like {@link #writeImage}, with stores surviving at the granularity of aligned 8-byte words
     * instead of lines: the durable image plus the dirty words that {@code survives} accepts (a
     * word number, offset / 8). Models hardware that guarantees no more than 8-byte failure
     * atomicity, so that a line may be written back in part (a "torn" line).
     */
    public void writeTornImage(Path target, LongPredicate survives) throws IOException {
      writeImage(target, WORD, survives);
    }

    private void writeImage(Path target, int unit, LongPredicate survives) throws IOException {
      try (FileChannel out =
          FileChannel.open(
              target,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        for (SimulatedChunk chunk : chunks) {
          writeFully(out, chunk.durable, chunk.start);
        }
        for (long line : dirtyLines()) {
          SimulatedChunk chunk = chunkAt(line * LINE);
          long end = Math.min((line + 1) * LINE, chunk.end());
          for (long offset = line * LINE; offset < end; offset += unit) {
            long length = Math.min(unit, end - offset);
            if (chunk.differs(offset, length) && survives.test(offset / unit)) {
              writeFully(out, chunk.mapped.segment().asSlice(offset - chunk.start, length), offset);
            }
          }
        }
      }
    }

    private static void writeFully(FileChannel out, MemorySegment bytes, long position)
        throws IOException {
      var buffer = bytes.asByteBuffer();
      while (buffer.hasRemaining()) {
        position += out.write(buffer, position);
      }
    }
  }

  /** No unpersisted store survives. */
  public static LongPredicate noDirtyLines() {
    return line -> false;
  }

  /** Every unpersisted store survives (the mapping as it is). */
  public static LongPredicate allDirtyLines() {
    return line -> true;
  }

  /** Each dirty line (or word) survives with probability 1/2, drawn from {@code random}. */
  public static LongPredicate randomDirtyLines(Random random) {
    return line -> random.nextBoolean();
  }

  /** One mapped chunk of the watched pool and its durable image; offsets are pool offsets unless said. */
  private final class SimulatedChunk implements MappedPool {
    private final long start;
    private final MappedPool mapped;
    private final long size;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment durable;

    SimulatedChunk(long start, MappedPool mapped) {
      this.start = start;
      this.mapped = mapped;
      this.size = mapped.segment().byteSize();
      this.durable = arena.allocate(size, LINE);
      durable.copyFrom(mapped.segment());
    }

    long end() {
      return start + size;
    }

    @Override
    public MemorySegment segment() {
      return mapped.segment();
    }

    /** Persists {@code [offset, offset + length)} of this chunk (chunk offsets). */
    @Override
    public void persist(long offset, long length) throws IOException {
      synchronized (PowerFailureSimulator.this) {
        listener.atCrashPoint(new CrashPoint(chunks.clone(), persists));
        persists++;
        if (length > 0) {
          long from = offset / LINE * LINE;
          long to = Math.min(size, (offset + length + LINE - 1) / LINE * LINE);
          MemorySegment.copy(mapped.segment(), from, durable, from, to - from);
        }
        mapped.persist(offset, length);
      }
    }

    /** True if the mapping differs from the durable image in {@code [offset, offset + length)} of the pool. */
    boolean differs(long offset, long length) {
      long from = offset - start;
      return MemorySegment.mismatch(mapped.segment(), from, from + length, durable, from, from + length) >= 0;
    }

    /** Pool line numbers where the mapping differs from the durable image, ascending. */
    long[] dirtyLines() {
      MemorySegment live = mapped.segment();
      long[] lines = new long[16];
      int count = 0;
      long from = 0;
      while (from < size) {
        long mismatch = MemorySegment.mismatch(live, from, size, durable, from, size);
        if (mismatch < 0) {
          break;
        }
        long line = (from + mismatch) / LINE;
        if (count == lines.length) {
          lines = Arrays.copyOf(lines, count * 2);
        }
        lines[count++] = (start / LINE) + line;
        from = (line + 1) * LINE;
      }
      return Arrays.copyOf(lines, count);
    }

    @Override
    public boolean isSynchronous() {
      return mapped.isSynchronous();
    }

    @Override
    public void close() throws IOException {
      synchronized (PowerFailureSimulator.this) {
        try {
          mapped.close();
        } finally {
          arena.close();
          chunks = Arrays.stream(chunks).filter(c -> c != this).toArray(SimulatedChunk[]::new);
        }
      }
    }
  }
}
