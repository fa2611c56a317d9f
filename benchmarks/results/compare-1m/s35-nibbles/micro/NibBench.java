import java.util.Random;

public class NibBench {
  static final int N = 256, HALF = 128;
  static byte[] nibbles = new byte[HALF];
  static float[] dst = new float[N + 1];

  // current code
  static void cur(int from, int count) {
    int half = HALF;
    int end = from + count;
    for (int i = from, lowEnd = Math.min(end, half); i < lowEnd; i++) {
      dst[i - from] = nibbles[i] & 0xF;
    }
    for (int i = Math.max(from, half); i < end; i++) {
      dst[i - from] = (nibbles[i - half] >>> 4) & 0xF;
    }
  }

  // signed shift
  static void sshift(int from, int count) {
    int half = HALF;
    int end = from + count;
    for (int i = from, lowEnd = Math.min(end, half); i < lowEnd; i++) {
      dst[i - from] = nibbles[i] & 0xF;
    }
    for (int i = Math.max(from, half); i < end; i++) {
      dst[i - from] = (nibbles[i - half] >> 4) & 0xF;
    }
  }

  // zero-based loops over the byte array
  static void zb(int from, int count) {
    int half = HALF;
    int end = from + count;
    int lowEnd = Math.min(end, half);
    byte[] nb = nibbles; float[] d = dst;
    int off = -from;
    for (int i = from; i < lowEnd; i++) {
      d[i + off] = nb[i] & 0xF;
    }
    int start = Math.max(from, half);
    int o2 = start - from;
    for (int j = start - half, e = end - half; j < e; j++) {
      d[j - (start - half) + o2] = (nb[j] >> 4) & 0xF;
    }
  }

  static int[] ints = new int[N];
  static final float[] LOWF = new float[256], HIGHF = new float[256];
  static { for (int b = 0; b < 256; b++) { LOWF[b] = b & 0xF; HIGHF[b] = (b >> 4) & 0xF; } }

  // lookup tables
  static void lut(int from, int count) {
    int half = HALF;
    int end = from + count;
    for (int i = from, lowEnd = Math.min(end, half); i < lowEnd; i++) {
      dst[i - from] = LOWF[nibbles[i] & 0xFF];
    }
    for (int i = Math.max(from, half); i < end; i++) {
      dst[i - from] = HIGHF[nibbles[i - half] & 0xFF];
    }
  }

  // int then float
  static void twostep(int from, int count) {
    int half = HALF;
    int end = from + count;
    int[] t = ints;
    for (int i = 0; i < half; i++) { t[i] = nibbles[i] & 0xF; t[i + half] = (nibbles[i] >> 4) & 0xF; }
    for (int i = from; i < end; i++) dst[i - from] = t[i];
  }

  // reference: int[] to float[]
  static void i2f(int from, int count) {
    int[] t = ints;
    for (int i = from, end = from + count; i < end; i++) dst[i - from] = t[i];
  }

  static byte[] freqBytes = new byte[N];
  static void exp(int from, int count) {
    int half = HALF;
    byte[] nb = nibbles, fb = freqBytes;
    for (int j = 0; j < half; j++) fb[j] = (byte) (nb[j] & 0xF);
    for (int j = 0, high = N - half; j < high; j++) fb[half + j] = (byte) ((nb[j] >> 4) & 0xF);
    float[] d = dst;
    for (int i = 0; i < count; i++) d[i] = fb[from + i];
  }

  static volatile float sink;

  public static void main(String[] a) {
    Random r = new Random(1);
    for (int i = 0; i < HALF; i++) nibbles[i] = (byte) (r.nextInt(4) + 1 | (r.nextInt(4) + 1) << 4 | (r.nextInt(8) == 0 ? 0x80 : 0));
    // verify equal
    float[] ref = new float[N + 1];
    for (int[] fc : new int[][] {{0, 256}, {0, 100}, {37, 200}, {128, 128}, {200, 56}}) {
      cur(fc[0], fc[1]); System.arraycopy(dst, 0, ref, 0, N);
      sshift(fc[0], fc[1]); check(ref, fc); zb(fc[0], fc[1]); check(ref, fc); lut(fc[0], fc[1]); check(ref, fc); twostep(fc[0], fc[1]); check(ref, fc); exp(fc[0], fc[1]); check(ref, fc);
    }
    for (int round = 0; round < 6; round++) {
      for (int v = 0; v < 7; v++) {
        long t = System.nanoTime();
        int reps = 2_000_000;
        for (int k = 0; k < reps; k++) {
          int from = (k & 7) == 0 ? 37 : 0;
          int count = N - from;
          switch (v) { case 0 -> cur(from, count); case 1 -> sshift(from, count); case 2 -> zb(from, count); case 3 -> lut(from, count); case 4 -> twostep(from, count); case 5 -> i2f(from, count); default -> exp(from, count); }
        }
        long ns = System.nanoTime() - t;
        sink = dst[5];
        System.out.printf("round %d %-7s %.2f ns/block %.3f ns/freq%n", round, new String[]{"cur","sshift","zb","lut","twostep","i2f","exp"}[v], (double) ns / reps, (double) ns / reps / 250);
      }
    }
  }

  static void check(float[] ref, int[] fc) {
    for (int i = 0; i < fc[1]; i++) if (ref[i] != dst[i]) throw new AssertionError(i + " " + fc[0]);
  }
}
