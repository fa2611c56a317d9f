public class LoadFreqs {
  static final int N = 256, HALF = 128;
  static byte[] nibbles = new byte[HALF]; static byte[] fb = new byte[N]; static int[] freqs = new int[N];
  static void cur(int count) {
    int half = HALF;
    for (int j = 0; j < half; j++) freqs[j] = nibbles[j] & 0xF;
    for (int j = 0, h = count - half; j < h; j++) freqs[half + j] = (nibbles[j] >>> 4) & 0xF;
  }
  static void exp(int count) {
    int half = HALF;
    for (int j = 0; j < half; j++) fb[j] = (byte) (nibbles[j] & 0xF);
    for (int j = 0, h = count - half; j < h; j++) fb[half + j] = (byte) ((nibbles[j] >> 4) & 0xF);
    for (int i = 0; i < count; i++) freqs[i] = fb[i];
  }
  static volatile int sink;
  public static void main(String[] a) {
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < HALF; i++) nibbles[i] = (byte) r.nextInt(256);
    int[] ref = new int[N]; cur(256); System.arraycopy(freqs, 0, ref, 0, N); exp(256);
    if (!java.util.Arrays.equals(ref, freqs)) throw new AssertionError();
    for (int round = 0; round < 5; round++) for (int v = 0; v < 2; v++) {
      int reps = 3_000_000; long t = System.nanoTime();
      for (int k = 0; k < reps; k++) { int c = 256 - (k & 1); if (v == 0) cur(c); else exp(c); }
      long ns = System.nanoTime() - t; sink = freqs[7];
      if (round >= 3) System.out.printf("%s %.2f ns/block%n", v == 0 ? "cur" : "exp", (double) ns / reps);
    }
  }
}
