package org.lucenenvm.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import picocli.CommandLine;

/**
 * The fixed-rate pacer on an injected clock (no real time anywhere): documents start when due and
 * never drift, a slow target is not waited for and shows its lag, and {@code --ingest-rate} takes
 * only positive rates, naming a bad value.
 */
public class TestIngestPacer {

  private static final long MS = 1_000_000L;

  /** A clock that moves only when slept on (by the asked time plus {@code oversleep}) or told to. */
  private static final class FakeClock implements IngestPacer.Clock {
    final long oversleep;
    long now = 1_000 * MS;
    int sleeps;

    FakeClock(long oversleep) {
      this.oversleep = oversleep;
    }

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public void sleepNanos(long nanos) {
      assertTrue("slept " + nanos, nanos > 0);
      sleeps++;
      now += nanos + oversleep;
    }
  }

  /** Paces {@code docs} documents whose add takes {@code addNanos.get(i)}; returns each one's start time. */
  private static List<Long> ingest(IngestPacer pacer, FakeClock clock, int docs, java.util.function.IntToLongFunction addNanos) throws IOException {
    pacer.start(clock.now);
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < docs; i++) {
      pacer.awaitTurn();
      starts.add(clock.now);
      clock.now += addNanos.applyAsLong(i);
    }
    return starts;
  }

  @Test
  public void documentIIsDueIOverRateAfterTheStart() {
    IngestPacer pacer = new IngestPacer(3, new FakeClock(0));
    pacer.start(500);
    assertEquals(500, pacer.dueNanos(0));
    assertEquals(500 + 1_000_000_000L, pacer.dueNanos(3));
    assertEquals(500 + 3_000_000_000_000L, pacer.dueNanos(9000));
    IngestPacer slow = new IngestPacer(0.5, new FakeClock(0));
    slow.start(0);
    assertEquals(2_000_000_000L, slow.dueNanos(1));
  }

  @Test
  public void aFastTargetStartsEveryDocumentWhenDue() throws IOException {
    FakeClock clock = new FakeClock(0);
    IngestPacer pacer = new IngestPacer(1000, clock);
    long start = clock.now;
    List<Long> starts = ingest(pacer, clock, 500, i -> 100_000);
    for (int i = 0; i < starts.size(); i++) {
      assertEquals("document " + i, start + i * MS, (long) starts.get(i));
    }
    IngestPace pace = pacer.pace(500, clock.now - start);
    assertEquals(0, pace.maxLagMillis(), 0);
    assertEquals(1000, pace.targetDocsPerSecond(), 0);
    assertEquals(500 / 0.4991, pace.achievedDocsPerSecond(), 1e-6);
    assertTrue(pace.describe(), pace.keptUp() && pace.describe().contains("kept up"));
  }

  @Test
  public void lateWakeUpsDoNotDrift() throws IOException {
    FakeClock clock = new FakeClock(300_000);
    IngestPacer pacer = new IngestPacer(1000, clock);
    long start = clock.now;
    List<Long> starts = ingest(pacer, clock, 2000, i -> 0);
    for (int i = 0; i < starts.size(); i++) {
      long late = starts.get(i) - (start + i * MS);
      assertTrue("document " + i + " started " + late + " ns after it was due", late >= 0 && late <= 300_000);
    }
    assertEquals(0.3, pacer.pace(2000, clock.now - start).maxLagMillis(), 1e-9);
  }

  @Test
  public void aSlowTargetIsNotWaitedForAndReportedAsNotKeepingUp() throws IOException {
    FakeClock clock = new FakeClock(0);
    IngestPacer pacer = new IngestPacer(1000, clock);
    long start = clock.now;
    ingest(pacer, clock, 100, i -> 2 * MS);
    assertEquals("a document that is already due is never slept for", 0, clock.sleeps);
    IngestPace pace = pacer.pace(100, clock.now - start);
    assertEquals(99, pace.maxLagMillis(), 1e-9);
    assertEquals(500, pace.achievedDocsPerSecond(), 1e-9);
    assertFalse(pace.keptUp());
    assertTrue(pace.describe(), pace.describe().contains("DID NOT KEEP UP"));
  }

  @Test
  public void aStallIsCaughtUpAndItsLagKept() throws IOException {
    FakeClock clock = new FakeClock(0);
    IngestPacer pacer = new IngestPacer(1000, clock);
    long start = clock.now;
    List<Long> starts = ingest(pacer, clock, 1000, i -> i == 10 ? 50 * MS : 100_000);
    assertEquals("after the stall, documents start back to back", starts.get(11) + 100_000, (long) starts.get(12));
    assertEquals("caught up, it is on schedule again", start + 999 * MS, (long) starts.get(999));
    IngestPace pace = pacer.pace(1000, clock.now - start);
    assertEquals("document 11 started 60 ms after the start, due at 11 ms", 49, pace.maxLagMillis(), 1e-9);
    assertTrue(pace.keptUp());
  }

  @Test
  public void anInterruptedWaitFailsNamingTheDocument() throws IOException {
    IngestPacer pacer = new IngestPacer(10, new IngestPacer.Clock() {
      @Override
      public long nanoTime() {
        return 0;
      }

      @Override
      public void sleepNanos(long nanos) throws InterruptedException {
        throw new InterruptedException();
      }
    });
    pacer.start(0);
    pacer.awaitTurn();
    InterruptedIOException e = assertThrows(InterruptedIOException.class, pacer::awaitTurn);
    assertTrue(e.getMessage(), e.getMessage().contains("document 1"));
    assertTrue(Thread.interrupted());
    assertThrows(IllegalStateException.class, () -> new IngestPacer(10, IngestPacer.SYSTEM).awaitTurn());
  }

  @Test
  public void theRateMustBeAPositiveNumber() {
    assertEquals(20000, IngestRate.parse("20000"), 0);
    assertEquals(2.5, IngestRate.parse("2.5"), 0);
    for (String bad : new String[] {"0", "0.0", "-5", "abc", "1e5", "NaN", "Infinity", "", " 5", "20k", "9".repeat(400)}) {
      IllegalArgumentException e = assertThrows(bad, IllegalArgumentException.class, () -> IngestRate.parse(bad));
      assertTrue(e.getMessage(), e.getMessage().contains("documents per second"));
    }
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class, () -> new IngestPacer(bad, IngestPacer.SYSTEM));
    }
  }

  @Test
  public void theOptionPassesToChildJvmsAsItParses() {
    for (double rate : new double[] {1e7, 2.5, 20000, 0.125}) {
      IngestRate option = new IngestRate();
      option.docsPerSecond = rate;
      List<String> args = option.toArgs();
      assertEquals("--ingest-rate", args.get(0));
      assertEquals(rate, IngestRate.parse(args.get(1)), 0);
    }
    assertEquals(List.of(), new IngestRate().toArgs());
    assertEquals(0, new IngestRate().orUnpaced(), 0);
  }

  @Test
  public void badValuesAndModesAreRefusedNamingTheOption() {
    String[][] cases = {
      {"2", "Invalid value for option '--ingest-rate'", "run", "--ingest-rate", "fast"},
      {"2", "'-3' is not a rate", "run", "--ingest-rate", "-3"},
      {"1", "--ingest-rate paces WRT ingestion, but --modes nc", "run", "--modes", "nc", "--ingest-rate", "100"},
      {"1", "--ingest-rate paces WRT ingestion, but lucene-dram and direct-heap are NC", "compare", "--baseline", "lucene-dram",
        "--candidate", "direct-heap", "--ingest-rate", "100"},
    };
    for (String[] c : cases) {
      List<String> args = new ArrayList<>(List.of(c).subList(2, c.length));
      args.addAll(List.of("--corpus", "no-such-corpus.txt", "--tasks", "no.tasks", "--out", "no-such-dir/out"));
      StringWriter err = new StringWriter();
      CommandLine cli = BenchCli.commandLine();
      cli.setErr(new PrintWriter(err));
      assertEquals(String.join(" ", args), Integer.parseInt(c[0]), cli.execute(args.toArray(String[]::new)));
      assertTrue(err.toString(), err.toString().contains(c[1]));
    }
  }
}
