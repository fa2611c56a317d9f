public class Psum {
  static byte[] b = new byte[256]; static int[] d = new int[257];
  static void cur(int n, int base) { int doc = base; for (int i = 0; i < n; i++) { doc += Byte.toUnsignedInt(b[i]); d[i] = doc; } }
  static void chains4(int n, int base) {
    byte[] x = b; int[] o = d;
    if (n != 256) { cur(n, base); return; }
    int a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < 64; i++) {
      a0 += x[i] & 0xFF; o[i] = a0;
      a1 += x[64 + i] & 0xFF; o[64 + i] = a1;
      a2 += x[128 + i] & 0xFF; o[128 + i] = a2;
      a3 += x[192 + i] & 0xFF; o[192 + i] = a3;
    }
    int s0 = base, s1 = s0 + a0, s2 = s1 + a1, s3 = s2 + a2;
    for (int i = 0; i < 64; i++) { o[i] += s0; o[64 + i] += s1; o[128 + i] += s2; o[192 + i] += s3; }
  }
  static volatile int sink;
  public static void main(String[] a) {
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 256; i++) b[i] = (byte) (1 + r.nextInt(255));
    int[] ref = new int[257]; cur(256, 1000); System.arraycopy(d, 0, ref, 0, 257); chains4(256, 1000);
    if (!java.util.Arrays.equals(ref, d)) throw new AssertionError();
    for (int round = 0; round < 5; round++) for (int v = 0; v < 2; v++) {
      int reps = 3_000_000; long t = System.nanoTime();
      for (int k = 0; k < reps; k++) { if (v == 0) cur(256, k); else chains4(256, k); }
      long ns = System.nanoTime() - t; sink = d[100];
      if (round >= 3) System.out.printf("%s %.2f ns/256%n", v == 0 ? "cur" : "chains4", (double) ns / reps);
    }
  }
}
