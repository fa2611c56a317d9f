import java.nio.file.*;
import java.util.*;
import org.apache.lucene.store.*;
import org.lucenenvm.store.NvmDirectory;
public class NormsRead {
  public static void main(String[] a) throws Exception {
    String kind = a[0]; int size = Integer.parseInt(a[1]);
    Path dir = Path.of("/dev/shm/normsread-" + kind);
    if (Files.exists(dir)) { try (var s = Files.walk(dir)) { s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete()); } }
    Files.createDirectories(dir);
    Directory d = kind.equals("nvm") ? NvmDirectory.open(dir.resolve("pool"), 1L << 30) : new MMapDirectory(dir);
    Random r = new Random(42);
    byte[] bytes = new byte[size]; r.nextBytes(bytes);
    try (IndexOutput out = d.createOutput("norms", IOContext.DEFAULT)) { out.writeBytes(bytes, bytes.length); }
    int[] docs = new int[1 << 20];
    for (int i = 0, doc = 0; i < docs.length; i++) { doc = (doc + 1 + r.nextInt(8)) % size; docs[i] = doc; }
    try (IndexInput in = d.openInput("norms", IOContext.DEFAULT)) {
      RandomAccessInput slice = in.randomAccessSlice(0, size);
      System.out.println(slice.getClass().getName());
      long sum = 0;
      for (int rep = 0; rep < 12; rep++) {
        long t = System.nanoTime();
        for (int k = 0; k < 20; k++) for (int doc : docs) sum += slice.readByte(doc);
        System.out.printf("%s ns/read %.3f%n", kind, (System.nanoTime() - t) / (20.0 * docs.length));
      }
      System.out.println(sum);
    }
    d.close();
  }
}
