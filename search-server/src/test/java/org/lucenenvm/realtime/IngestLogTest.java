package org.lucenenvm.realtime;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.store.NvmDirectory;
import org.lucenenvm.store.NvmRegion;
import org.lucenenvm.store.PoolPaths;

/** Appends, reads, reclaiming, wrap-around, full logs, reopening and damaged logs. */
public class IngestLogTest extends LuceneTestCase {
  private static final long POOL = 4L * 1024 * 1024;
  private static final String LOG = "ingest.log";
  /** Fixed-size records (id "d0000", 20-byte document): 128 bytes each in the ring. */
  private static final long RECORD_SPACE = IngestLogFormat.recordSpace(5, 20);

  private Path pool;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    pool = PoolPaths.poolIn(createTempDir("log"));
  }

  private static String id(long n) {
    return String.format("d%04d", n % 10_000);
  }

  private static byte[] doc(long n) {
    return String.format("document number %04d", n % 10_000).getBytes(StandardCharsets.UTF_8);
  }

  /** Adds and updates alternate, so every record takes {@link #RECORD_SPACE}. */
  private static LogOperation op(long n) {
    return n % 2 == 0 ? LogOperation.ADD : LogOperation.UPDATE;
  }

  private static long append(IngestLog log, long n) throws IOException {
    return log.append(op(n), id(n), doc(n));
  }

  private static void assertRecord(long n, LogRecord record) {
    assertEquals(op(n), record.operation());
    assertEquals(id(n), record.id());
    assertArrayEquals(doc(n), record.document());
  }

  private static List<LogRecord> readAll(IngestLog log, long from) throws IOException {
    List<LogRecord> records = new ArrayList<>();
    IngestLog.Cursor cursor = log.read(from);
    for (LogRecord r; (r = cursor.next()) != null; ) {
      records.add(r);
    }
    return records;
  }

  public void testAppendReadBackAndReopen() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
        IngestLog log = IngestLog.open(dir, LOG, 64 * 1024, Duration.ZERO)) {
      assertTrue(log.recovery().created());
      assertEquals(1, log.firstSequence());
      assertEquals(0, log.lastSequence());
      for (long n = 0; n < 100; n++) {
        assertEquals(n + 1, append(log, n));
      }
      List<LogRecord> all = readAll(log, 1);
      assertEquals(100, all.size());
      for (int n = 0; n < 100; n++) {
        assertEquals(n + 1, all.get(n).sequence());
        assertRecord(n, all.get(n));
      }
      List<LogRecord> tail = readAll(log, 91);
      assertEquals(10, tail.size());
      assertEquals(91, tail.getFirst().sequence());
      assertEquals(100 * RECORD_SPACE, log.usedBytes());
    }
    try (NvmDirectory dir = NvmDirectory.open(pool, 0);
        IngestLog log = IngestLog.open(dir, LOG, 64 * 1024, Duration.ZERO)) {
      assertFalse(log.recovery().created());
      assertEquals(100, log.recovery().records());
      assertNull(log.recovery().tornTail());
      assertEquals(100, log.lastSequence());
      assertEquals(101, log.append(LogOperation.DELETE, id(7), new byte[0]));
      LogRecord delete = readAll(log, 101).getFirst();
      assertEquals(new LogRecord(101, LogOperation.DELETE, id(7), delete.document()), delete);
      assertEquals(0, delete.document().length);
      assertEquals(101, readAll(log, 1).size());
    }
  }

  public void testSplitWriteThenAwaitDurableAndRestartAfter() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL)) {
      try (IngestLog log = IngestLog.open(dir, LOG, 64 * 1024, Duration.ZERO, 5)) {
        assertEquals(5, log.firstSequence());
        long space = log.reserve(id(5), doc(5));
        assertEquals(RECORD_SPACE, space);
        long seq = log.write(space, op(5), id(5), doc(5));
        assertEquals(5, seq);
        assertEquals("written, not yet durable", 4, log.lastSequence());
        log.awaitDurable(seq);
        assertEquals(5, log.lastSequence());
        expectThrows(IllegalArgumentException.class, () -> log.awaitDurable(6));
        log.release(log.reserve(id(6), doc(6)));
        assertEquals(RECORD_SPACE, log.usedBytes());
        expectThrows(IllegalArgumentException.class, () -> log.restartAfter(4));
        log.restartAfter(20); // operations up to 20 are held elsewhere
        assertEquals(21, log.firstSequence());
        assertEquals(0, log.usedBytes());
        assertEquals(21, append(log, 21));
      }
      try (IngestLog log = IngestLog.open(dir, LOG, 64 * 1024, Duration.ZERO)) {
        List<LogRecord> records = readAll(log, 21);
        assertEquals(1, records.size());
        assertEquals(21, records.get(0).sequence());
        assertRecord(21, records.get(0));
      }
    }
  }

  public void testTruncateReclaimsAndWrapsAround() throws Exception {
    long capacity = 20 * RECORD_SPACE;
    long next = 0;
    for (int reopen = 0; reopen < 5; reopen++) {
      try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
          IngestLog log = IngestLog.open(dir, LOG, capacity, Duration.ZERO)) {
        assertEquals(next, log.lastSequence());
        for (int round = 0; round < 7; round++) {
          for (int i = 0; i < 13; i++, next++) {
            assertEquals(next + 1, append(log, next));
          }
          long reclaimed = next - 5; // sequence numbers run to next: keep the last 5 records
          log.truncate(reclaimed);
          assertEquals(reclaimed + 1, log.firstSequence());
          List<LogRecord> kept = readAll(log, reclaimed + 1);
          assertEquals(5, kept.size());
          for (int i = 0; i < 5; i++) {
            assertRecord(reclaimed + i, kept.get(i));
          }
          expectThrows(IllegalArgumentException.class, () -> log.read(reclaimed));
        }
      }
    }
    assertTrue("wrapped around several times", next * RECORD_SPACE > 10 * capacity);
  }

  public void testFullLogFailsClearlyAndNeverOverwrites() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
        IngestLog log = IngestLog.open(dir, LOG, 10 * RECORD_SPACE, Duration.ZERO)) {
      for (long n = 0; n < 10; n++) {
        append(log, n);
      }
      IngestLogFullException full = expectThrows(IngestLogFullException.class, () -> append(log, 10));
      assertTrue(full.getMessage(), full.getMessage().contains("is full") && full.getMessage().contains("records 1..10"));
      assertEquals(10, readAll(log, 1).size());
      expectThrows(IllegalArgumentException.class, () -> log.truncate(11)); // not acknowledged
      log.truncate(3);
      for (long n = 10; n < 13; n++) {
        append(log, n);
      }
      expectThrows(IngestLogFullException.class, () -> append(log, 13));
      List<LogRecord> records = readAll(log, 4);
      assertEquals(10, records.size());
      for (int i = 0; i < 10; i++) {
        assertRecord(3 + i, records.get(i));
      }
      IllegalArgumentException tooBig =
          expectThrows(IllegalArgumentException.class, () -> log.append(LogOperation.ADD, "x", new byte[(int) (20 * RECORD_SPACE)]));
      assertTrue(tooBig.getMessage(), tooBig.getMessage().contains("exceeds the capacity"));
    }
  }

  public void testFullLogWaitsForTruncate() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
        IngestLog log = IngestLog.open(dir, LOG, 4 * RECORD_SPACE, Duration.ofSeconds(30))) {
      for (long n = 0; n < 4; n++) {
        append(log, n);
      }
      ExecutorService exec = Executors.newSingleThreadExecutor();
      try {
        Future<Long> blocked = exec.submit(() -> append(log, 4));
        Thread.sleep(100);
        assertFalse("append waits for space", blocked.isDone());
        log.truncate(2);
        assertEquals(5L, (long) blocked.get(30, TimeUnit.SECONDS));
      } finally {
        exec.shutdown();
        assertTrue(exec.awaitTermination(30, TimeUnit.SECONDS));
      }
    }
  }

  public void testConcurrentAppendersShareAndLoseNothing() throws Exception {
    int threads = 4;
    int perThread = 300;
    ConcurrentHashMap<Long, String> acknowledged = new ConcurrentHashMap<>();
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL);
        IngestLog log = IngestLog.open(dir, LOG, 64 * 1024, Duration.ofSeconds(30))) {
      ExecutorService exec = Executors.newFixedThreadPool(threads + 1);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            exec.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    String id = "t" + thread + "-" + i;
                    long seq = log.append(LogOperation.ADD, id, id.getBytes(StandardCharsets.UTF_8));
                    assertNull(acknowledged.put(seq, id));
                  }
                  return null;
                }));
      }
      // A reclaimer like the engine's: truncates what was acknowledged, now and then.
      futures.add(
          exec.submit(
              () -> {
                start.await();
                while (acknowledged.size() < threads * perThread) {
                  long last = log.lastSequence();
                  if (last > log.firstSequence() + 50) {
                    log.truncate(last - 50);
                  }
                  Thread.sleep(1);
                }
                return null;
              }));
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      exec.shutdown();
      assertEquals(threads * perThread, acknowledged.size());
      assertEquals(threads * perThread, log.lastSequence());
      List<LogRecord> kept = readAll(log, log.firstSequence());
      assertEquals(log.lastSequence() - log.firstSequence() + 1, kept.size());
      int[] lastPerThread = new int[threads];
      java.util.Arrays.fill(lastPerThread, -1);
      for (LogRecord r : kept) {
        assertEquals(acknowledged.get(r.sequence()), r.id());
        assertEquals(r.id(), new String(r.document(), StandardCharsets.UTF_8));
        String[] parts = r.id().substring(1).split("-");
        int thread = Integer.parseInt(parts[0]);
        int i = Integer.parseInt(parts[1]);
        assertTrue("per-thread order", i > lastPerThread[thread]);
        lastPerThread[thread] = i;
      }
    }
  }

  // ---- damaged logs ----

  /** Writes 30 records, closes, lets {@code damage} change the region, and reopens. */
  private CorruptIngestLogException reopenDamaged(boolean cleanClose, RegionDamage damage) throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL)) {
      IngestLog log = IngestLog.open(dir, LOG, 64 * RECORD_SPACE, Duration.ZERO);
      for (long n = 0; n < 30; n++) {
        append(log, n);
      }
      if (cleanClose) {
        log.close();
      }
      try (NvmRegion region = dir.openRegion(LOG)) {
        damage.apply(region);
        region.persist(0, region.length());
      }
    }
    try (NvmDirectory dir = NvmDirectory.open(pool, 0)) {
      return expectThrows(CorruptIngestLogException.class, () -> IngestLog.open(dir, LOG, 0, Duration.ZERO).close());
    }
  }

  @FunctionalInterface
  private interface RegionDamage {
    void apply(NvmRegion region);
  }

  /** Region offset of record {@code sequence} (records are fixed-size, from position 0). */
  private static long recordOffset(long sequence) {
    return IngestLogFormat.HEADER_SIZE + (sequence - 1) * RECORD_SPACE;
  }

  private void assertNamesPoolOffsetAndRecord(CorruptIngestLogException e, long sequence) {
    String message = e.getMessage();
    assertTrue(message, message.contains(pool.toString()));
    assertTrue(message, message.contains("pool offset"));
    assertTrue(message, message.contains("record " + sequence + " "));
  }

  public void testBitFlipInTheMiddleIsRefused() throws Exception {
    int bit = random().nextInt((int) (IngestLogFormat.MIN_RECORD + 25) * 8);
    CorruptIngestLogException e =
        reopenDamaged(
            random().nextBoolean(),
            region -> {
              long at = recordOffset(12) + bit / 8;
              byte b = region.segment().get(ValueLayout.JAVA_BYTE, at);
              region.segment().set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit % 8))));
            });
    assertNamesPoolOffsetAndRecord(e, 12);
  }

  public void testTruncatedRecordInTheMiddleIsRefused() throws Exception {
    CorruptIngestLogException e =
        reopenDamaged(false, region -> region.segment().asSlice(recordOffset(7) + 40, RECORD_SPACE - 40).fill((byte) 0));
    assertNamesPoolOffsetAndRecord(e, 7);
    assertTrue(e.getMessage(), e.getMessage().contains("checksum"));
  }

  public void testForeignRecordInTheMiddleIsRefused() throws Exception {
    byte[] foreign = new byte[(int) RECORD_SPACE];
    random().nextBytes(foreign);
    CorruptIngestLogException e =
        reopenDamaged(
            false,
            region ->
                java.lang.foreign.MemorySegment.copy(
                    foreign, 0, region.segment(), ValueLayout.JAVA_BYTE, recordOffset(20), foreign.length));
    assertNamesPoolOffsetAndRecord(e, 20);
  }

  public void testLastRecordDamagedAfterCleanCloseIsRefused() throws Exception {
    CorruptIngestLogException e =
        reopenDamaged(true, region -> region.segment().set(ValueLayout.JAVA_BYTE, recordOffset(30) + 50, (byte) 0x7F));
    assertNamesPoolOffsetAndRecord(e, 30);
  }

  public void testDamagedHeaderIsRefused() throws Exception {
    CorruptIngestLogException e =
        reopenDamaged(true, region -> region.segment().set(ValueLayout.JAVA_BYTE, 17, (byte) 0x55));
    assertTrue(e.getMessage(), e.getMessage().contains("header checksum") && e.getMessage().contains(pool.toString()));
  }

  public void testTornTailIsDroppedAndReported() throws Exception {
    try (NvmDirectory dir = NvmDirectory.open(pool, POOL)) {
      IngestLog log = IngestLog.open(dir, LOG, 64 * RECORD_SPACE, Duration.ZERO);
      for (long n = 0; n < 10; n++) {
        append(log, n);
      }
      // No close: a record was being written when the power failed, half of it reached the pool.
      try (NvmRegion region = dir.openRegion(LOG)) {
        byte[] inFlight = IngestLogFormat.encode(11, 10 * RECORD_SPACE, 10, LogOperation.ADD, "x".getBytes(StandardCharsets.UTF_8), new byte[100]);
        java.lang.foreign.MemorySegment.copy(inFlight, 0, region.segment(), ValueLayout.JAVA_BYTE, recordOffset(11), 64);
        region.persist(0, region.length());
      }
    }
    try (NvmDirectory dir = NvmDirectory.open(pool, 0);
        IngestLog log = IngestLog.open(dir, LOG, 0, Duration.ZERO)) {
      assertEquals(10, log.recovery().records());
      assertNotNull(log.recovery().tornTail());
      assertTrue(log.recovery().tornTail(), log.recovery().tornTail().contains("record 11"));
      assertEquals(11, append(log, 10));
      assertEquals(11, readAll(log, 1).size());
      assertRecord(10, readAll(log, 11).getFirst());
    }
  }
}
