package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Requests sent byte for byte over a raw socket (an HTTP client library would normalise them):
 * every refusal, including those Jetty makes while parsing the request line, the URI or the
 * headers, has the JSON error body; and any document id is addressable as one percent-encoded
 * path segment.
 */
public class RawHttpErrorTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();
  private LiveServer s;

  @Before
  public void start() throws Exception {
    s = new LiveServer(LiveServer.config(tmp.newFolder().toPath()).build());
    assertEquals(201, s.createIndex("idx", "{\"fields\": {\"body\": \"text\"}}").status());
    assertEquals(201, s.send("POST", "/indexes/idx/docs", "{\"id\":\"a\",\"body\":\"alpha\"}").status());
  }

  @After
  public void stop() throws Exception {
    s.close();
  }

  private static void assertJsonError(LiveServer.RawRes r, int status, String fragment) throws Exception {
    assertEquals(r.head() + "\n" + r.body(), status, r.status());
    assertTrue(r.head(), r.head().toLowerCase().contains("content-type: application/json"));
    JsonNode error = r.json().get("error");
    assertEquals(r.body(), status, error.get("status").asInt());
    assertTrue(r.body(), error.get("message").asText().contains(fragment));
  }

  @Test
  public void everyRefusalHasAJsonBody() throws Exception {
    assertJsonError(s.raw("PUT /indexes/..%2Fetc HTTP/1.1"), 400, "invalid index name '../etc'");
    assertJsonError(s.raw("DELETE /indexes/..%2Fetc HTTP/1.1"), 404, "'../etc'");
    assertJsonError(s.raw("GET /indexes/a%2F..%2Fb HTTP/1.1"), 404, "'a/../b'");
    assertJsonError(s.raw("GET /indexes/%2e%2e HTTP/1.1"), 404, "'..'");
    assertJsonError(s.raw("PUT /indexes/../../etc HTTP/1.1"), 400, "Bad Request");
    assertJsonError(s.raw("GET /indexes/%zz HTTP/1.1"), 400, "Bad Request");
    assertJsonError(s.raw("GET /indexes/%C3%28 HTTP/1.1"), 400, "Bad UTF-8 encoding");
    assertJsonError(s.raw("GET /" + "x".repeat(20_000) + " HTTP/1.1"), 414, "URI Too Long");
    assertJsonError(s.raw("GET /health HTTP/1.1", "Bad Header: x"), 400, "Illegal character");
    assertJsonError(s.raw("PUT /indexes/x HTTP/1.1", "X-Big: " + "y".repeat(20_000)), 431, "Header Fields Too Large");
    assertJsonError(s.raw("GET /health HTTP/7.0"), 505, "Unknown Version");
    assertJsonError(s.raw("GET /health HTTP/1.1", "Content-Length: -5"), 400, "");
    assertJsonError(s.raw("BREW /health HTTP/1.1"), 405, "method BREW not allowed");
    assertJsonError(s.raw("DELETE /nowhere HTTP/1.1"), 404, "no such endpoint");
    assertEquals(200, s.raw("GET /health HTTP/1.1").status());
    assertEquals(1, s.get("/indexes/idx/_stats").json().get("docs").asLong());
  }

  /** {@code id} as one path segment: every byte but unreserved characters percent-encoded, dots too. */
  private static String segment(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20").replace(".", "%2E").replace("*", "%2A");
  }

  @Test
  public void anyIdIsAddressable() throws Exception {
    List<String> ids =
        List.of("a/b", "/leading", "50%", "a%2Fb", "with space", "héllo wörld ✓", "日本語", "..", ".", "a\\b", "a+b", "q?x=1#f");
    long docs = 1;
    for (String id : ids) {
      String path = "/indexes/idx/docs/" + segment(id);
      String body = LiveServer.JSON.writeValueAsString(Map.of("body", "text of " + id));
      LiveServer.Res put = s.send("PUT", path, body);
      assertEquals(id + ": " + put.body(), 200, put.status());
      assertEquals(id, put.json().get("id").asText());
      docs++;
      LiveServer.RawRes raw = s.raw("GET " + path + " HTTP/1.1");
      assertEquals(id + ": " + raw.body(), 200, raw.status());
      assertEquals(id, raw.json().get("id").asText());
      assertEquals("text of " + id, raw.json().get("fields").get("body").asText());
    }
    assertEquals(docs, s.get("/indexes/idx/_stats").json().get("docs").asLong());
    String bulkId = "bulk/one %";
    assertEquals(200, s.send("POST", "/indexes/idx/_bulk", LiveServer.JSON.writeValueAsString(Map.of("id", bulkId, "body", "b"))).status());
    assertEquals(bulkId, s.get("/indexes/idx/docs/" + segment(bulkId)).json().get("id").asText());
    for (String id : ids) {
      assertEquals(id, 200, s.send("DELETE", "/indexes/idx/docs/" + segment(id), null).status());
      assertEquals(id, 404, s.get("/indexes/idx/docs/" + segment(id)).status());
    }
    assertEquals(2, s.get("/indexes/idx/_stats").json().get("docs").asLong());
    assertFalse("the unencoded form is another path", s.get("/indexes/idx/docs/a/b").status() == 200);
  }
}
