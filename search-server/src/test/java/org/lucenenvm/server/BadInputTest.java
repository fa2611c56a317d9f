package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Every kind of bad input gets a 4xx (or 503 when saturated) with a JSON error naming the problem,
 * the server keeps serving, and every acknowledged document is still there afterwards.
 */
public class BadInputTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();
  private LiveServer s;

  @Before
  public void start() throws Exception {
    s =
        new LiveServer(
            LiveServer.config(tmp.newFolder().toPath())
                .authToken("s3cret")
                .maxBodyBytes(4096)
                .maxDocumentBytes(256)
                .maxConcurrentRequests(2)
                .build());
    assertEquals(201, s.createIndex("idx", "{\"fields\": {\"body\": \"text\", \"tag\": \"keyword\"}}").status());
    assertEquals(200, s.send("POST", "/indexes/idx/_bulk", "{\"id\":\"a\",\"body\":\"alpha\"}\n{\"id\":\"b\",\"body\":\"beta\"}").status());
  }

  @After
  public void stop() throws Exception {
    s.close();
  }

  private void assertError(LiveServer.Res r, int status, String fragment) throws Exception {
    assertEquals(r.body(), status, r.status());
    assertTrue(r.raw().headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    String message = r.errorMessage();
    assertTrue("'" + message + "' should mention '" + fragment + "'", message.contains(fragment));
  }

  private void assertDocs(long expected) throws Exception {
    assertEquals(expected, s.get("/indexes/idx/_stats").json().get("docs").asLong());
  }

  @Test
  public void malformedJsonDocument() throws Exception {
    assertError(s.send("POST", "/indexes/idx/docs", "{\"id\":\"c\",\"body\":"), 400, "malformed JSON");
    assertError(s.send("POST", "/indexes/idx/docs", "[1,2]"), 400, "must be a JSON object");
    assertError(s.send("POST", "/indexes/idx/docs", "{\"id\":\"c\"} trailing"), 400, "malformed JSON");
    assertError(s.send("POST", "/indexes/idx/docs", ""), 400, "empty");
    assertError(s.send("POST", "/indexes/idx/docs", "{\"id\":\"c\",\"id\":\"d\"}"), 400, "Duplicate field");
    assertError(s.send("POST", "/indexes/idx/docs", "{\"body\":\"no id\"}"), 400, "'id'");
    assertError(s.send("POST", "/indexes/idx/docs", "{\"id\":\"c\",\"body\":5}"), 400, "field 'body' must be a string");
    assertError(s.send("PUT", "/indexes/idx/docs/c", "{\"id\":\"other\"}"), 400, "differs");
    assertDocs(2);
  }

  /** A {@code _bulk} item: its line, id (null: none read), status and, if it failed, error. */
  private static void assertItem(JsonNode item, int line, String id, int status, String error) {
    assertEquals(item.toString(), line, item.get("line").asInt());
    assertEquals(item.toString(), id, item.get("id").isNull() ? null : item.get("id").asText());
    assertEquals(item.toString(), status, item.get("status").asInt());
    if (error == null) {
      assertFalse(item.toString(), item.has("error"));
    } else {
      assertTrue(item.toString(), item.get("error").asText().contains(error));
    }
  }

  @Test
  public void ndjsonPartialFailureReportsLinesAndKeepsGoodOnes() throws Exception {
    String body =
        "{\"id\":\"c\",\"body\":\"gamma\"}\n"
            + "{not json}\n"
            + "\n"
            + "{\"id\":\"d\",\"color\":\"red\"}\n"
            + "{\"id\":\"a\",\"body\":\"duplicate\"}\n"
            + "{\"id\":\"e\",\"body\":\"" + "x ".repeat(200) + "\"}\n"
            + "{\"id\":\"f\",\"body\":\"phi\"}\r\n";
    LiveServer.Res r = s.send("POST", "/indexes/idx/_bulk", body);
    assertEquals(r.body(), 200, r.status());
    JsonNode out = r.json();
    assertEquals(2, out.get("acknowledged").asLong());
    assertEquals(4, out.get("failed").asLong());
    assertTrue(out.get("errors").asBoolean());
    JsonNode items = out.get("items");
    assertEquals("one item per non-blank line", 6, items.size());
    assertItem(items.get(0), 1, "c", 201, null);
    assertItem(items.get(1), 2, null, 400, "malformed JSON in line 2");
    assertItem(items.get(2), 4, "d", 400, "color");
    assertItem(items.get(3), 5, "a", 400, "already exists");
    assertItem(items.get(4), 6, null, 413, "exceeds the limit of 256");
    assertItem(items.get(5), 7, "f", 201, null);
    assertEquals(1, s.search("idx", "gamma", 10).json().get("total_hits").asLong());
    assertEquals(1, s.search("idx", "phi", 10).json().get("total_hits").asLong());
    assertEquals("alpha", s.get("/indexes/idx/docs/a").json().get("fields").get("body").asText());
    assertDocs(4);
  }

  @Test
  public void unknownIndexEndpointAndMethod() throws Exception {
    assertError(s.search("nope", "x", 10), 404, "index 'nope' does not exist");
    assertError(s.send("POST", "/indexes/nope/_bulk", "{}"), 404, "index 'nope' does not exist");
    assertError(s.send("DELETE", "/indexes/nope", null), 404, "index 'nope' does not exist");
    assertError(s.get("/nothing"), 404, "no such endpoint");
    assertError(s.send("POST", "/indexes/idx/_search", "{}"), 405, "not allowed");
    assertError(s.get("/indexes/idx/docs/zzz"), 404, "document 'zzz' not found");
  }

  @Test
  public void badIndexDefinitions() throws Exception {
    assertError(s.createIndex("bad", "{\"fields\": {\"body\": \"fulltext\"}}"), 400, "unknown type 'fulltext'");
    assertError(s.createIndex("bad", "{\"fields\": {\"id\": \"text\"}}"), 400, "implicit id field");
    assertError(s.createIndex("bad", "{\"fields\": {}}"), 400, "at least one field");
    assertError(s.createIndex("bad", "{\"colums\": {}}"), 400, "unknown member 'colums'");
    assertError(s.createIndex("bad", "{}"), 400, "missing 'fields'");
    assertError(s.createIndex("Bad!", "{\"fields\": {\"b\": \"text\"}}"), 400, "invalid index name");
    assertError(s.createIndex("bad", "{\"fields\": {\"b\": \"text\"}, \"partitions\": 0}"), 400, "partitions");
    assertEquals(1, s.get("/indexes").json().get("indexes").size());
  }

  @Test
  public void queryErrors() throws Exception {
    assertError(s.search("idx", "body:(alpha", 10), 400, "query syntax error");
    assertError(s.search("idx", "color:red", 10), 400, "field 'color'");
    assertError(s.get("/indexes/idx/_search"), 400, "missing query");
    assertError(s.get("/indexes/idx/_search?q=alpha&k=0"), 400, "'k' must be in 1..1000");
    assertError(s.get("/indexes/idx/_search?q=alpha&k=ten"), 400, "must be an integer");
    assertEquals(1, s.search("idx", "alpha", 10).json().get("total_hits").asLong());
  }

  @Test
  public void oversizeBodies() throws Exception {
    String big = "{\"id\":\"big\",\"body\":\"" + "y".repeat(5000) + "\"}";
    assertError(s.send("POST", "/indexes/idx/_bulk", big), 413, "exceeds the limit of 4096 bytes");
    assertError(s.send("POST", "/indexes/idx/docs", "{\"id\":\"big\",\"body\":\"" + "y".repeat(300) + "\"}"), 413, "limit of 256");
    assertDocs(2);
  }

  /**
   * A body declared (Content-Length) over the limit is answered with 413 before any of it is read,
   * so a client that waits for the answer before sending gets it at once; the connection is then
   * closed. Whatever the declared size, just over the limit or far beyond.
   */
  @Test
  public void oversizeBodyIsRefusedBeforeItIsRead() throws Exception {
    for (long declared : new long[] {5_000, 1L << 40}) {
      try (Socket socket = s.connect()) {
        socket.setSoTimeout(10_000); // the server waited for the body before: a read timed out
        socket.getOutputStream().write(bulkHead(declared, "").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        assertRefusedAndClosed(socket, declared);
      }
    }
    assertDocs(2);
  }

  /** With {@code Expect: 100-continue} the client is never asked for the body it would send. */
  @Test
  public void expectContinueGetsThe413BeforeTheBody() throws Exception {
    try (Socket socket = s.connect()) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(
          bulkHead(5_000, "Expect: 100-continue\r\n").getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      assertRefusedAndClosed(socket, 5_000);
    }
    assertDocs(2);
  }

  /**
   * A client that already sent part of an oversize body still reads the 413 (the bytes it sent
   * are not what the answer waits for).
   */
  @Test
  public void oversizeBodyStartedBeforeTheAnswerStillGetsIt() throws Exception {
    try (Socket socket = s.connect()) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(bulkHead(5_000, "").getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[1_000]);
      out.flush();
      assertRefusedAndClosed(socket, 5_000);
    }
    assertDocs(2);
  }

  private static void assertRefusedAndClosed(Socket socket, long declared) throws IOException {
    LiveServer.RawRes refused = LiveServer.readResponse(socket.getInputStream());
    assertEquals(refused.body(), 413, refused.status());
    assertTrue(refused.head(), refused.head().toLowerCase(java.util.Locale.ROOT).contains("connection: close"));
    assertTrue(refused.head(), refused.head().contains("application/json"));
    String message = refused.json().path("error").path("message").asText();
    assertTrue(message, message.contains(declared + " bytes") && message.contains("limit of 4096 bytes"));
    assertEquals("the connection is closed", -1, socket.getInputStream().read());
  }

  /**
   * A refused request whose body is within the limit has its body read and discarded, so the
   * client reads the error on a connection that serves its next request.
   */
  @Test
  public void refusedBodyWithinTheLimitIsDrainedAndTheConnectionReused() throws Exception {
    try (Socket socket = s.connect()) {
      byte[] body = "{\"id\":\"t\",\"body\":\"x\"}\n".repeat(100).getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      String head =
          "POST /indexes/idx/_bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n"
              + "Content-Length: " + body.length + "\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, 1000);
      out.flush();
      Thread.sleep(200); // the rest arrives after the server has refused the request
      out.write(body, 1000, body.length - 1000);
      out.write(
          "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      LiveServer.RawRes refused = LiveServer.readResponse(socket.getInputStream());
      assertEquals(refused.body(), 403, refused.status());
      LiveServer.RawRes next = LiveServer.readResponse(socket.getInputStream());
      assertEquals("the same connection serves the next request", 200, next.status());
    }
    assertDocs(2);
  }

  private static String bulkHead(long length, String extraHeaders) {
    return "POST /indexes/idx/_bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\n"
        + "Content-Type: application/x-ndjson\r\n"
        + extraHeaders
        + "Content-Length: " + length + "\r\n\r\n";
  }

  @Test
  public void writesNeedTheToken() throws Exception {
    s.token = null;
    LiveServer.Res missing = s.send("POST", "/indexes/idx/docs", "{\"id\":\"t\",\"body\":\"x\"}");
    assertError(missing, 401, "Authorization: Bearer");
    assertEquals("Bearer", missing.raw().headers().firstValue("WWW-Authenticate").orElse(""));
    assertError(s.send("DELETE", "/indexes/idx", null), 401, "Bearer");
    s.token = "wrong";
    assertError(s.send("POST", "/indexes/idx/_bulk", "{\"id\":\"t\",\"body\":\"x\"}"), 403, "wrong bearer token");
    s.token = null;
    assertEquals("reads need no token", 200, s.search("idx", "alpha", 10).status());
    assertDocs(2);
  }

  @Test
  public void malformedHttpGetsJsonError() throws Exception {
    try (Socket socket = s.connect()) {
      socket.getOutputStream().write(
          "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response, response.startsWith("HTTP/1.1 400"));
      assertTrue(response, response.contains("Content-Type: application/json"));
      assertTrue(response, response.contains("{\"error\":{\"status\":400,"));
    }
    assertEquals(200, s.get("/health").status());
  }

  @Test
  public void saturatedServerAnswers503() throws Exception {
    // Two slow requests fill both slots; a probe then gets 503. If a probe happens to hold a slot
    // at the moment a slow request is admitted, that slow request is the one refused: try again.
    long acknowledged = 2;
    boolean saturated = false;
    for (int attempt = 0; attempt < 20 && !saturated; attempt++) {
      try (SlowBulk first = new SlowBulk("slow1-" + attempt);
          SlowBulk second = new SlowBulk("slow2-" + attempt)) {
        LiveServer.Res r = null;
        for (int probe = 0; probe < 300; probe++) {
          r = s.get("/health");
          if (r.status() == 503) {
            break;
          }
          Thread.sleep(10);
        }
        int firstStatus = first.finish();
        int secondStatus = second.finish();
        acknowledged += (firstStatus == 200 ? 1 : 0) + (secondStatus == 200 ? 1 : 0);
        if (r.status() == 503 && firstStatus == 200 && secondStatus == 200) {
          assertError(r, 503, "server saturated: 2 requests already in progress");
          saturated = true;
        }
      }
    }
    assertTrue("never saw both slow requests hold the two slots", saturated);
    assertEquals(200, s.get("/health").status());
    assertDocs(acknowledged);
  }

  /** A bulk request over a raw socket whose body is sent in two parts, holding a request slot. */
  private final class SlowBulk implements AutoCloseable {
    private final Socket socket;
    private final byte[] rest;

    SlowBulk(String id) throws Exception {
      byte[] doc = ("{\"id\":\"" + id + "\",\"body\":\"slow\"}\n").getBytes(StandardCharsets.UTF_8);
      socket = s.connect();
      OutputStream out = socket.getOutputStream();
      out.write(bulkHead(doc.length, "").getBytes(StandardCharsets.US_ASCII));
      out.write(doc, 0, 5);
      out.flush();
      rest = Arrays.copyOfRange(doc, 5, doc.length);
    }

    /** Sends the rest of the body; returns the response status. */
    int finish() {
      try {
        socket.getOutputStream().write(rest);
        socket.getOutputStream().flush();
      } catch (IOException refusedBeforeTheBodyEnded) {
        // The server answered (503) without waiting for the body; its answer is read below.
      }
      try {
        BufferedReader in =
            new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        String status = in.readLine();
        return status == null ? -1 : Integer.parseInt(status.split(" ")[1]);
      } catch (IOException connectionClosed) {
        return -1;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
