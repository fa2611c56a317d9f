public class Loops {
  static byte[] b = new byte[256]; static float[] f = new float[257]; static int[] in = new int[256];
  static long[] l = new long[16]; static byte[] b2 = new byte[256];
  static void b2f(int n) { for (int i = 0; i < n; i++) f[i] = b[i]; }
  static void b2fMask(int n) { for (int i = 0; i < n; i++) f[i] = b[i] & 0xF; }
  static void b2i(int n) { for (int i = 0; i < n; i++) in[i] = b[i]; }
  static void b2iMask(int n) { for (int i = 0; i < n; i++) in[i] = b[i] & 0xF; }
  static void bMaskB(int n) { for (int i = 0; i < n; i++) b2[i] = (byte) (b[i] & 0xF); }
  static void bShiftB(int n) { for (int i = 0; i < n; i++) b2[i] = (byte) ((b[i] >> 4) & 0xF); }
  static void longSplit(int n) { for (int i = 0; i < 16; i++) { long x = l[i]; l[i] = x & 0x0F0F0F0F0F0F0F0FL; } }
  static volatile float sink;
  public static void main(String[] a) {
    for (int i = 0; i < 256; i++) b[i] = (byte) (i * 37);
    String[] names = {"b2f", "b2fMask", "b2i", "b2iMask", "bMaskB", "bShiftB"};
    for (int round = 0; round < 4; round++) for (int v = 0; v < names.length; v++) {
      int reps = 2_000_000; long t = System.nanoTime();
      for (int k = 0; k < reps; k++) { int n = 256 - (k & 1);
        switch (v) { case 0 -> b2f(n); case 1 -> b2fMask(n); case 2 -> b2i(n); case 3 -> b2iMask(n); case 4 -> bMaskB(n); default -> bShiftB(n); } }
      long ns = System.nanoTime() - t; sink = f[3] + in[3] + b2[3];
      if (round == 3) System.out.printf("%-8s %.2f ns/256%n", names[v], (double) ns / reps);
    }
  }
}
