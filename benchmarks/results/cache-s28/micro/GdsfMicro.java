import org.lucenenvm.cache.GdsfPolicy;
import java.util.*;
public class GdsfMicro {
  public static void main(String[] a) {
    int n = 416; GdsfPolicy<Integer> p = new GdsfPolicy<>(n);
    Random r = new Random(1);
    int next = 0;
    for (; next < n; next++) { p.onInsert(next, 1000 + r.nextInt(100000), 400); }
    byte[] thrash = new byte[32 << 20];
    for (int round = 0; round < 6; round++) {
      boolean cold = round % 2 == 1;
      long hitNs = 0, insNs = 0; int ops = 20000; long sink = 0;
      for (int i = 0; i < ops; i++) {
        if (cold) { for (int j = 0; j < thrash.length; j += 64) sink += thrash[j]++; }
        int k = next - 1 - r.nextInt(n / 2);
        long t0 = System.nanoTime();
        if (p.isResident(k)) p.onHit(k);
        long t1 = System.nanoTime();
        p.onInsert(next++, 1000 + r.nextInt(100000), 400);
        long t2 = System.nanoTime();
        hitNs += t1 - t0; insNs += t2 - t1;
      }
      System.out.printf("%s hit %.0f ns insert %.0f ns (%d)%n", cold ? "cold" : "warm", (double) hitNs / ops, (double) insNs / ops, sink & 1);
    }
  }
}
