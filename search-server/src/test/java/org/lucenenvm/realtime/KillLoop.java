package org.lucenenvm.realtime;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lucenenvm.store.NvmDirectory;

/**
 * The kill -9 loop of crash-consistent mode: a {@link KillTestChild} JVM ingests the seeded {@link
 * KillTestWorkload} into a pool file and reports each acknowledgement and the pipeline stage; this
 * parent kills it with SIGKILL ({@link Process#destroyForcibly}) at a random moment, aiming in
 * turn at each stage (ingest, flush, engrave, checkpoint, commit, merge: it kills as soon as the
 * child reports the aimed stage, or after a random wait up to a bound), reopens the pool and checks that
 * the engine holds exactly the acknowledged operations, or those plus the one in flight. The next
 * child continues the workload on the same pool.
 *
 * <p>Run: {@code KillLoop <points> <seed> <work dir> [<csv file>]} (scripts/killtest.sh). Exit
 * status 0 when every point held.
 */
public final class KillLoop {
  static final List<String> STAGES = List.of("ingest", "flush", "engrave", "checkpoint", "commit", "merge");
  static final String CSV_HEADER =
      "point,aimed_stage,stage_at_kill,acked_ops,in_flight_applied,live_docs,ops_replayed,segments_opened,segments_dropped,recovery_ms,result";

  /** One kill point. */
  record Point(
      int point,
      String aimed,
      String stageAtKill,
      long ackedOps,
      boolean inFlightApplied,
      int liveDocs,
      long replayed,
      int segmentsOpened,
      int segmentsDropped,
      double recoveryMillis,
      String result) {
    String csv() {
      return String.join(
          ",",
          Integer.toString(point),
          aimed,
          stageAtKill,
          Long.toString(ackedOps),
          Boolean.toString(inFlightApplied),
          Integer.toString(liveDocs),
          Long.toString(replayed),
          Integer.toString(segmentsOpened),
          Integer.toString(segmentsDropped),
          String.format(java.util.Locale.ROOT, "%.1f", recoveryMillis),
          result);
    }
  }

  private final long seed;
  private final Path pool;
  private final KillTestWorkload model;
  private final Random random;
  private final int maxWaitMillis;

  /** A loop on a pool in {@code workDir} that kills each child within {@code maxWaitMillis}. */
  KillLoop(long seed, Path workDir, int maxWaitMillis) {
    this.seed = seed;
    this.maxWaitMillis = maxWaitMillis;
    this.pool = workDir.resolve("killtest.pool");
    this.model = new KillTestWorkload(seed, true);
    this.random = new Random(seed ^ 0x5DEECE66DL);
  }

  /** Runs {@code points} kill points, handing each result to {@code sink}; returns them. */
  List<Point> run(int points, java.util.function.Consumer<Point> sink) throws Exception {
    Files.deleteIfExists(pool);
    List<Point> results = new ArrayList<>();
    for (int i = 0; i < points; i++) {
      Point p = killOnce(i, STAGES.get(i % STAGES.size()));
      results.add(p);
      sink.accept(p);
      if (!p.result().equals("ok")) {
        break;
      }
    }
    return results;
  }

  private Point killOnce(int point, String aimed) throws Exception {
    long first = model.applied();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    long lastAck = first - 1;

    String stage = "start";
    Path output = pool.resolveSibling("child.out");
    Process child = startChild(first, output);
    try {
      // The child's stdout goes to a file, read while it grows: a pipe read concurrently with the
      // process's death could lose the last lines, and those are the acknowledgements that count.
      Thread reader = new Thread(() -> tail(output, child, lines));
      reader.setDaemon(true);
      reader.start();
      String ready = lines.poll(120, TimeUnit.SECONDS);
      if (ready == null || !ready.equals("READY " + first)) {
        throw new IllegalStateException("child did not start: " + ready);
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20 + random.nextInt(maxWaitMillis));
      boolean aimedHit = false;
      while (!aimedHit && System.nanoTime() < deadline) {
        String line = lines.poll(1, TimeUnit.MILLISECONDS);
        if (line == null) {
          continue;
        }
        if (line.equals("EOF")) {
          throw new IllegalStateException("child ended by itself");
        }
        if (line.startsWith("ACK ")) {
          lastAck = Long.parseLong(line.substring(4));
        } else if (line.startsWith("STAGE ")) {
          stage = line.substring(6);
          aimedHit = stage.equals(aimed);
        }
      }
      child.destroyForcibly(); // SIGKILL
      child.waitFor();
      reader.join(); // reads the file to its end
      for (String line : lines) {
        if (line.startsWith("ACK ")) {
          lastAck = Long.parseLong(line.substring(4));
        } else if (line.startsWith("STAGE ") && !aimedHit) {
          stage = line.substring(6);
        }
      }
    } finally {
      child.destroyForcibly();
      child.waitFor();
    }
    // Every printed ACK was acknowledged; the operation after the last one may be in flight.
    while (model.applied() <= lastAck) {
      model.advance();
    }
    return check(point, aimed, stage, lastAck + 1);
  }

  private Process startChild(long first, Path output) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--add-modules=jdk.incubator.vector");
    command.add("-Xmx512m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KillTestChild.class.getName());
    command.addAll(List.of(pool.toString(), Long.toString(seed), Long.toString(first)));
    return new ProcessBuilder(command)
        .redirectOutput(output.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  /** Hands each whole line of {@code file} to {@code lines} as it is written, then "EOF". */
  private static void tail(Path file, Process writer, BlockingQueue<String> lines) {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      boolean ended = false;
      while (true) {
        int n = in.read(buffer);
        if (n <= 0) {
          if (ended) {
            break;
          }
          ended = !writer.isAlive(); // one more read after the writer is gone
          Thread.sleep(1);
          continue;
        }
        for (int i = 0; i < n; i++) {
          if (buffer[i] == '\n') {
            lines.add(line.toString(StandardCharsets.UTF_8));
            line.reset();
          } else {
            line.write(buffer[i]);
          }
        }
      }
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("reading the child's output " + file, e);
    } finally {
      lines.add("EOF");
    }
  }

  private Point check(int point, String aimed, String stage, long acked) throws Exception {
    long started = System.nanoTime();
    try (NvmDirectory nvm = NvmDirectory.open(pool, KillTestChild.POOL_BYTES);
        RtEngine engine = RtEngine.open(nvm, KillTestChild.config())) {
      double millis = (System.nanoTime() - started) / 1e6;
      RtRecovery r = engine.recoveries().get(0);
      Map<String, String> actual = CrashConsistentEngine.contents(engine);
      boolean inFlight = false;
      String result = "ok";
      if (!actual.equals(model.state())) {
        if (actual.equals(model.stateWithNext())) {
          inFlight = true;
          model.advance();
        } else {
          result = "LOST: " + difference(model.state(), actual) + " " + diagnosis(engine, actual);
        }
      }
      return new Point(point, aimed, stage, acked, inFlight, actual.size(), r.operationsReplayed(),
          r.segmentsOpened(), r.segmentsDropped(), millis, result);
    } catch (IOException | RuntimeException e) {
      return new Point(point, aimed, stage, acked, false, -1, -1, -1, -1, -1, "REFUSED: " + e + " at " + e.getStackTrace()[0]);
    }
  }

  private static String difference(Map<String, String> expected, Map<String, String> actual) {
    Map<String, String> missing = new TreeMap<>(expected);
    missing.entrySet().removeAll(actual.entrySet());
    Map<String, String> extra = new TreeMap<>(actual);
    extra.entrySet().removeAll(expected.entrySet());
    return ("missing/different " + missing.keySet() + " extra/different " + extra.keySet()).replace(',', ';');
  }

  private String diagnosis(RtEngine engine, Map<String, String> actual) {
    StringBuilder b = new StringBuilder("recovery " + engine.recoveries());
    java.util.Set<String> ids = new java.util.TreeSet<>();
    Map<String, String> missing = new TreeMap<>(model.state());
    missing.entrySet().removeAll(actual.entrySet());
    Map<String, String> extra = new TreeMap<>(actual);
    extra.entrySet().removeAll(model.state().entrySet());
    ids.addAll(missing.keySet());
    ids.addAll(extra.keySet());
    for (String id : ids) {
      b.append(" | ").append(id).append(" expected=").append(model.state().get(id)).append(" actual=").append(actual.get(id)).append(" ops:");
      List<CrashConsistentEngine.Op> h = model.history();
      for (int k = 0; k < h.size(); k++) {
        if (h.get(k).id().equals(id)) {
          b.append(' ').append(k).append(h.get(k).operation());
        }
      }
    }
    return b.toString().replace(',', ';');
  }

  /** How many kill points hit each stage, in {@link #STAGES} order. */
  static Map<String, Integer> distribution(List<Point> points) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Point p : points) {
      counts.merge(p.stageAtKill(), 1, Integer::sum);
    }
    return counts;
  }

  public static void main(String[] args) throws Exception {
    int points = Integer.parseInt(args[0]);
    long seed = Long.parseLong(args[1]);
    Path workDir = Path.of(args[2]);
    Path csv = args.length > 3 ? Path.of(args[3]) : null;
    Files.createDirectories(workDir);
    KillLoop loop = new KillLoop(seed, workDir, 1500);
    List<Point> results;
    try (Writer out = csv == null ? Writer.nullWriter() : Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      out.write(CSV_HEADER + "\n");
      results =
          loop.run(
              points,
              p -> {
                try {
                  out.write(p.csv() + "\n");
                  out.flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
                System.out.println(p.csv());
              });
    } finally {
      Files.deleteIfExists(loop.pool);
    }
    long ok = results.stream().filter(p -> p.result().equals("ok")).count();
    long inFlight = results.stream().filter(Point::inFlightApplied).count();
    System.out.println(
        "kill points: " + results.size() + ", held: " + ok + ", in-flight op recovered: " + inFlight
            + ", acknowledged ops: " + (results.isEmpty() ? 0 : results.getLast().ackedOps())
            + ", stage at kill: " + distribution(results));
    System.exit(ok == points ? 0 : 1);
  }
}
