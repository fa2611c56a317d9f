package org.lucenenvm.realtime;

import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Document bytes: round trips, the stored-part filter, and damaged bytes refused by name. */
public class LogDocumentCodecTest extends LuceneTestCase {
  private static final RtDocument DOC =
      new RtDocument("d1", new LinkedHashMap<>(Map.of("title", "héllo", "body", "secret text")));

  private static LogRecord record(byte[] document) {
    return new LogRecord(7, LogOperation.ADD, "d1", document);
  }

  public void testRoundTripKeepsEveryFieldInOrder() throws Exception {
    RtDocument decoded = LogDocumentCodec.decode(record(LogDocumentCodec.encode(DOC)));
    assertEquals("d1", decoded.id());
    assertEquals(DOC.fields(), decoded.fields());
    assertEquals(
        DOC.fields().keySet().stream().toList(), decoded.fields().keySet().stream().toList());
  }

  public void testFilteredEncodingKeepsOnlyAcceptedFields() throws Exception {
    byte[] titleOnly = LogDocumentCodec.encode(DOC, "title"::equals);
    assertEquals(Map.of("title", "héllo"), LogDocumentCodec.decode(record(titleOnly)).fields());
    Map<String, String> visited = new LinkedHashMap<>();
    LogDocumentCodec.visitFields(titleOnly, (name, value) -> visited.put(name, value) != null);
    assertEquals(Map.of("title", "héllo"), visited);
  }

  public void testVisitorStops() throws Exception {
    int[] seen = new int[1];
    LogDocumentCodec.visitFields(LogDocumentCodec.encode(DOC), (name, value) -> ++seen[0] == 1);
    assertEquals(1, seen[0]);
  }

  public void testDamagedBytesAreRefusedNamingTheRecord() throws Exception {
    byte[] good = LogDocumentCodec.encode(DOC);
    ByteArrayOutputStream trailing = new ByteArrayOutputStream();
    trailing.write(good);
    trailing.write(0);
    assertRefused(trailing.toByteArray(), "1 trailing bytes");
    assertRefused(java.util.Arrays.copyOf(good, good.length - 3), "bytes at offset");
    assertRefused(new byte[0], "record 7");
    assertRefused(vints(-1), "negative field count");
    assertRefused(vints(1, 0x7FFFFFF0), "string of 2147483632 bytes");
  }

  private static byte[] vints(int... values) throws Exception {
    byte[] bytes = new byte[5 * values.length];
    ByteArrayDataOutput out = new ByteArrayDataOutput(bytes);
    for (int v : values) {
      out.writeVInt(v);
    }
    return java.util.Arrays.copyOf(bytes, out.getPosition());
  }

  private static void assertRefused(byte[] document, String fragment) {
    CorruptIngestLogException e =
        expectThrows(CorruptIngestLogException.class, () -> LogDocumentCodec.decode(record(document)));
    assertTrue(e.getMessage(), e.getMessage().contains(fragment));
    assertTrue(e.getMessage(), e.getMessage().contains("ingest log record 7 (ADD of id 'd1')"));
  }
}
