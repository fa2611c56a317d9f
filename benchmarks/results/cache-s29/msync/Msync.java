import java.lang.foreign.*;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import static java.nio.file.StandardOpenOption.*;

public class Msync {
  public static void main(String[] a) throws Exception {
    Path p = Path.of(a[0]);
    long size = 1L << 30;
    try (FileChannel ch = FileChannel.open(p, CREATE, READ, WRITE); Arena arena = Arena.ofShared()) {
      ch.truncate(size); ch.position(size - 1); ch.write(java.nio.ByteBuffer.wrap(new byte[1]));
      MemorySegment s = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
      long region = 256 << 10;
      for (long o = 0; o < region; o += 4096) s.set(ValueLayout.JAVA_LONG, o, 1);
      java.util.Random r = new java.util.Random(1);
      for (int round = 0; round < 5; round++) {
        int n = 200_000;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          long off = (r.nextInt((int) (region / 8))) * 8L;
          s.set(ValueLayout.JAVA_LONG, off, i);
          s.asSlice(off, 8).force();
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          long off = (r.nextInt((int) (region / 8))) * 8L;
          s.set(ValueLayout.JAVA_LONG, off, i);
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          long off = (r.nextInt((int) (region / 8))) * 8L;
          s.set(ValueLayout.JAVA_LONG, off, i);
          s.asSlice(off & ~4095L, 4096).force();
        }
        long t3 = System.nanoTime();
        System.out.printf("store+force8 %.2f us, store only %.3f us, store+force page %.2f us%n",
            (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n, (t3 - t2) / 1e3 / n);
      }
    }
    Files.delete(p);
  }
}
