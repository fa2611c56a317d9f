import java.lang.invoke.*;
import java.nio.ByteOrder;
public class Swar {
  static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final int N = 256, HALF = 128;
  static byte[] nibbles = new byte[HALF]; static byte[] fb = new byte[N + 8]; static float[] dst = new float[N + 1];
  static void cur(int from, int count) {
    int half = HALF; int end = from + count;
    for (int i = from, lowEnd = Math.min(end, half); i < lowEnd; i++) dst[i - from] = nibbles[i] & 0xF;
    for (int i = Math.max(from, half); i < end; i++) dst[i - from] = (nibbles[i - half] >>> 4) & 0xF;
  }
  static void swar(int from, int count) {
    int half = HALF; byte[] nb = nibbles, e = fb;
    for (int k = 0; k < half; k += 8) {
      long l = (long) LE_LONG.get(nb, k);
      LE_LONG.set(e, k, l & 0x0F0F0F0F0F0F0F0FL);
    }
    for (int k = 0; k < half; k += 8) {
      long l = (long) LE_LONG.get(nb, k);
      LE_LONG.set(e, half + k, (l >>> 4) & 0x0F0F0F0F0F0F0F0FL);
    }
    float[] d = dst;
    for (int i = 0; i < count; i++) d[i] = e[from + i];
  }
  static volatile float sink;
  public static void main(String[] a) {
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < HALF; i++) nibbles[i] = (byte) r.nextInt(256);
    float[] ref = new float[N + 1];
    for (int[] fc : new int[][] {{0, 256}, {37, 200}, {128, 128}}) { cur(fc[0], fc[1]); System.arraycopy(dst, 0, ref, 0, N); swar(fc[0], fc[1]);
      for (int i = 0; i < fc[1]; i++) if (ref[i] != dst[i]) throw new AssertionError(); }
    for (int round = 0; round < 5; round++) for (int v = 0; v < 2; v++) {
      int reps = 3_000_000; long t = System.nanoTime();
      for (int k = 0; k < reps; k++) { int from = (k & 7) == 0 ? 37 : 0; if (v == 0) cur(from, 256 - from); else swar(from, 256 - from); }
      long ns = System.nanoTime() - t; sink = dst[7];
      if (round >= 3) System.out.printf("%s %.2f ns/block%n", v == 0 ? "cur" : "swar", (double) ns / reps);
    }
  }
}
