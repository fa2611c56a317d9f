public class U8 {
  static byte[] b = new byte[256]; static float[] f = new float[257]; static short[] s = new short[256];
  static void cur(int n) { for (int i = 0; i < n; i++) f[i] = Byte.toUnsignedInt(b[i]); }
  static void viaShort(int n) { short[] t = s; byte[] x = b; float[] d = f;
    for (int i = 0; i < n; i++) t[i] = (short) (x[i] & 0xFF);
    for (int i = 0; i < n; i++) d[i] = t[i]; }
  static void blend(int n) { byte[] x = b; float[] d = f;
    for (int i = 0; i < n; i++) { float v = x[i]; d[i] = v < 0 ? v + 256f : v; } }
  static void twoLoop(int n) { byte[] x = b; float[] d = f;
    for (int i = 0; i < n; i++) d[i] = x[i];
    for (int i = 0; i < n; i++) { float v = d[i]; d[i] = v < 0 ? v + 256f : v; } }
  static void xor(int n) { byte[] x = b; float[] d = f;
    for (int i = 0; i < n; i++) d[i] = (byte) (x[i] ^ 0x80) + 128f; }
  static volatile float sink;
  public static void main(String[] a) {
    for (int i = 0; i < 256; i++) b[i] = (byte) (i * 37 + 11);
    float[] ref = new float[257]; cur(256); System.arraycopy(f, 0, ref, 0, 257);
    String[] names = {"cur", "viaShort", "blend", "twoLoop", "xor"};
    for (int v = 1; v < names.length; v++) { java.util.Arrays.fill(f, -1); run(v, 256); if (!java.util.Arrays.equals(ref, 0, 256, f, 0, 256)) throw new AssertionError(names[v]); }
    for (int round = 0; round < 4; round++) for (int v = 0; v < names.length; v++) {
      int reps = 2_000_000; long t = System.nanoTime();
      for (int k = 0; k < reps; k++) run(v, 256 - (k & 1));
      long ns = System.nanoTime() - t; sink = f[3];
      if (round == 3) System.out.printf("%-8s %.2f ns/256%n", names[v], (double) ns / reps);
    }
  }
  static void run(int v, int n) { switch (v) { case 0 -> cur(n); case 1 -> viaShort(n); case 2 -> blend(n); case 3 -> twoLoop(n); default -> xor(n); } }
}
