package org.lucenenvm.realtime;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import org.lucenenvm.codec.NvmCodec;
import org.lucenenvm.store.NvmDirectory;

/**
 * The child JVM of the kill test: opens (recovering) a crash-consistent engine on a pool file and
 * runs the {@link KillTestWorkload} from operation {@code first} on until it is killed. Prints
 * {@code READY <first>} once open, {@code ACK <n>} after operation n returned (flushed at once),
 * and {@code STAGE <stage>} whenever the pipeline stage it samples every 200 µs changes ({@code
 * ingest} while the pipeline is idle).
 *
 * <p>Arguments: pool file, seed, first operation number.
 */
public final class KillTestChild {
  /** Pool size of the kill test. */
  static final long POOL_BYTES = 96L << 20;

  private KillTestChild() {}

  /**
   * The engine configuration of the kill test: small segments, log and DRAM budget, and {@link
   * NvmCodec}, whose merges link their sources' files (clones of shared pool extents), so kills
   * land inside linked merges too (the power-failure tests cover the default codec).
   */
  static RtEngineConfig config() {
    return CrashConsistentEngine.config()
        .withCodec(new NvmCodec())
        .withLinkedMerges(true)
        .withSegmentSize(150)
        .withMaxSegments(6)
        .withDramBudgetBytes(200_000)
        .withLogBytes(256L << 10);
  }

  public static void main(String[] args) throws Exception {
    Path pool = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    long first = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    KillTestWorkload workload = new KillTestWorkload(seed, false);
    while (workload.applied() < first) {
      workload.advance();
    }
    NvmDirectory nvm = NvmDirectory.open(pool, POOL_BYTES);
    RtEngine engine = RtEngine.open(nvm, config());
    synchronized (out) {
      out.println("READY " + first);
      out.flush();
    }
    Thread sampler =
        new Thread(
            () -> {
              String last = "";
              while (true) {
                String activity = engine.pipelineActivity();
                String stage = activity.equals("idle") ? "ingest" : activity;
                if (!stage.equals(last)) {
                  synchronized (out) {
                    out.println("STAGE " + stage);
                    out.flush();
                  }
                  last = stage;
                }
                try {
                  Thread.sleep(0, 200_000);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "stage-sampler");
    sampler.setDaemon(true);
    sampler.start();
    while (true) {
      long n = workload.applied();
      workload.next().run(engine);
      workload.advance();
      synchronized (out) {
        out.println("ACK " + n);
        out.flush();
      }
    }
  }
}
