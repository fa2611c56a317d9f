package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.util.Constants;
import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.ThreadNices;

/** The API end to end over real HTTP: indexes, documents, bulk, search, stats, metrics, restart. */
public class SearchServerTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final String SCHEMA =
      "{\"fields\": {\"title\": \"text\", \"body\": \"text\", \"lang\": \"keyword\", \"url\": \"stored\"},"
          + " \"partitions\": 2}";

  private static String ndjson(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      b.append("{\"id\":\"d")
          .append(i)
          .append("\",\"title\":\"title ")
          .append(i)
          .append("\",\"body\":\"common word")
          .append(i % 2 == 0 ? " even" : " odd")
          .append("\",\"lang\":\"")
          .append(i % 3 == 0 ? "EN" : "de")
          .append("\",\"url\":\"http://x/")
          .append(i)
          .append("\"}\n");
    }
    return b.toString();
  }

  @Test
  public void indexLifecycleDocumentsAndSearch() throws Exception {
    try (LiveServer s = new LiveServer(LiveServer.config(tmp.newFolder().toPath()).build())) {
      assertEquals(201, s.createIndex("news", SCHEMA).status());
      assertEquals(409, s.createIndex("news", SCHEMA).status());
      JsonNode list = s.get("/indexes").json();
      assertEquals("news", list.get("indexes").get(0).get("name").asText());
      assertEquals(2, list.get("indexes").get(0).get("partitions").asInt());

      LiveServer.Res bulk = s.send("POST", "/indexes/news/_bulk", ndjson(0, 300));
      assertEquals(bulk.body(), 200, bulk.status());
      assertEquals(300, bulk.json().get("acknowledged").asLong());

      JsonNode all = s.search("news", "common", 1000).json();
      assertEquals(300, all.get("total_hits").asLong());
      assertTrue(all.get("took_us").asLong() >= 0);
      JsonNode even = s.search("news", "body:even AND title:4", 10).json();
      assertEquals(1, even.get("total_hits").asLong());
      JsonNode hit = even.get("hits").get(0);
      assertEquals("d4", hit.get("id").asText());
      assertTrue(hit.get("score").asDouble() > 0);
      assertEquals("http://x/4", hit.get("fields").get("url").asText());
      assertEquals(100, s.search("news", "lang:EN", 1000).json().get("total_hits").asLong());

      assertEquals(201, s.send("POST", "/indexes/news/docs", "{\"id\":\"new\",\"title\":\"fresh zebra\"}").status());
      assertEquals(1, s.search("news", "zebra", 10).json().get("total_hits").asLong());
      LiveServer.Res got = s.get("/indexes/news/docs/new");
      assertEquals(200, got.status());
      assertEquals("fresh zebra", got.json().get("fields").get("title").asText());

      assertEquals(200, s.send("PUT", "/indexes/news/docs/new", "{\"title\":\"fresh yak\"}").status());
      assertEquals(0, s.search("news", "zebra", 10).json().get("total_hits").asLong());
      assertEquals("fresh yak", s.get("/indexes/news/docs/new").json().get("fields").get("title").asText());

      assertEquals(200, s.send("DELETE", "/indexes/news/docs/new", null).status());
      assertEquals(404, s.get("/indexes/news/docs/new").status());
      assertEquals(404, s.send("DELETE", "/indexes/news/docs/new", null).status());

      JsonNode stats = s.get("/indexes/news/_stats").json();
      assertEquals(300, stats.get("docs").asLong());
      assertEquals(2, stats.get("partitions").asInt());
      assertEquals("300 bulk + 1 add + 1 update", 302, stats.get("ingestedDocs").asLong());
      assertTrue(stats.get("queries").asLong() >= 5);
      assertTrue(stats.get("stages").has("indexer"));
      assertTrue(stats.get("poolBytes").asLong() >= 16L << 20);

      assertEquals("ok", s.get("/health").json().get("status").asText());
      LiveServer.Res metrics = s.get("/metrics");
      assertEquals(200, metrics.status());
      assertTrue(metrics.raw().headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
      String text = metrics.body();
      assertTrue(text, text.contains("lucenenvm_index_docs{index=\"news\"} 300.0"));
      assertTrue(text, text.contains("lucenenvm_index_ingested_docs_total{index=\"news\"} 302.0"));
      assertTrue(text, text.contains(
          "lucenenvm_http_requests_total{method=\"POST\",route=\"/indexes/{name}/_bulk\",status=\"200\"} 1.0"));
      assertTrue(text, text.contains("# TYPE lucenenvm_http_request_seconds histogram"));
      assertTrue(text, text.contains(
          "lucenenvm_http_request_seconds_bucket{route=\"/indexes/{name}/_search\",le=\"+Inf\"} 5"));
      assertTrue(text, text.contains("lucenenvm_pipeline_busy_seconds_total{index=\"news\",stage=\"indexer\"}"));
      assertTrue("JVM metrics", text.contains("jvm_memory_used_bytes{area=\"heap\"}"));

      assertEquals(200, s.send("DELETE", "/indexes/news", null).status());
      assertEquals(404, s.search("news", "common", 10).status());
      assertFalse(Files.exists(s.server.config().dataDir().resolve("news.pool")));
    }
  }

  @Test
  public void resultCacheCountsHitsAndCanBeBypassed() throws Exception {
    ServerConfig config =
        LiveServer.config(tmp.newFolder().toPath())
            .cache(
                ResultCacheSettings.of(
                    ResultCacheSettings.Tier.NVM, 1 << 20, CachePolicy.Kind.DLIRS, 0))
            .build();
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(201, s.createIndex("news", SCHEMA).status());
      assertEquals(200, s.send("POST", "/indexes/news/_bulk", ndjson(0, 300)).status());
      awaitFlushed(s, "news", 300, 2, 50);
      // keyable: a conjunction of fielded terms (unfielded, "common AND even" would be a
      // conjunction of per-word disjunctions over title and body, which bypasses the cache)
      String first = s.search("news", "+body:common +body:even", 10).body();
      String again = s.search("news", "+body:even +body:common", 10).body(); // isomorphic
      String bypass =
          s.get("/indexes/news/_search?k=10&cache=false&q=%2Bbody:common+%2Bbody:even").body();
      assertEquals(hitsOf(first), hitsOf(again));
      assertEquals(hitsOf(first), hitsOf(bypass));
      assertEquals("miss", cacheOf(first));
      assertEquals("hit", cacheOf(again));
      assertEquals("bypass", cacheOf(bypass));
      assertEquals(400, s.get("/indexes/news/_search?q=common&cache=maybe").status());
      JsonNode cache = s.get("/indexes/news/_stats").json().get("cache");
      assertEquals(cache.toString(), 1, cache.get("misses").asLong());
      assertEquals(cache.toString(), 1, cache.get("hits").asLong());
      assertTrue(cache.toString(), cache.get("bytes").asLong() > 0);
      String text = s.get("/metrics").body();
      assertTrue(text, text.contains("lucenenvm_cache_hits_total{index=\"news\"} 1.0"));
      assertTrue(text, text.contains("lucenenvm_cache_misses_total{index=\"news\"} 1.0"));
      assertTrue(text, text.contains("lucenenvm_cache_entries{index=\"news\"} 1.0"));
    }
  }

  /**
   * Waits (bounded) until every full segment of the {@code docs} documents d0.. is flushed, so the
   * statistics epoch holds still.
   */
  private static void awaitFlushed(LiveServer s, String index, int docs, int partitions, int segment)
      throws Exception {
    int[] perPartition = new int[partitions];
    for (int i = 0; i < docs; i++) {
      perPartition[Math.floorMod(("d" + i).hashCode(), partitions)]++;
    }
    int full = 0;
    for (int n : perPartition) {
      full += n / segment;
    }
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      JsonNode states = s.get("/indexes/" + index + "/_stats").json().get("segmentsByState");
      int flushed = 0;
      for (var it = states.fields(); it.hasNext(); ) {
        var e = it.next();
        if (!e.getKey().equals("INGESTED")) {
          flushed += e.getValue().asInt();
        }
      }
      if (flushed >= full) {
        return;
      }
      assertTrue("pipeline never flushed: " + states, System.nanoTime() < deadline);
      Thread.sleep(10);
    }
  }

  private static String hitsOf(String searchReply) throws Exception {
    return LiveServer.JSON.readTree(searchReply).get("hits").toString();
  }

  private static String cacheOf(String searchReply) throws Exception {
    return LiveServer.JSON.readTree(searchReply).get("cache").asText();
  }

  @Test
  public void backgroundThreadsRunAtTheConfiguredNice() throws Exception {
    Assume.assumeTrue("thread nice values are read from /proc", Constants.LINUX);
    int nice = 6;
    Assume.assumeTrue(ThreadNices.processNice() < nice);
    ServerConfig config = LiveServer.config(tmp.newFolder().toPath()).backgroundNice(nice).build();
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(201, s.createIndex("news", SCHEMA).status());
      assertEquals(200, s.send("POST", "/indexes/news/_bulk", ndjson(0, 10)).status());
      Set<String> stages = new HashSet<>(ThreadNices.stageThreads(0));
      stages.addAll(ThreadNices.stageThreads(1));
      Map<String, Set<Integer>> seen = ThreadNices.await(stages, nice);
      assertTrue("pipeline threads' nice values: " + seen, ThreadNices.allAt(seen, stages, nice));
    }
  }

  @Test
  public void restartReopensIndexesWithoutReindexing() throws Exception {
    ServerConfig config = LiveServer.config(tmp.newFolder().toPath()).build();
    try (LiveServer s = new LiveServer(config)) {
      s.createIndex("a", SCHEMA);
      s.createIndex("b", "{\"fields\": {\"body\": \"text\"}}");
      assertEquals(200, s.send("POST", "/indexes/a/_bulk", ndjson(0, 537)).status());
      assertEquals(200, s.send("POST", "/indexes/b/_bulk", "{\"id\":\"x\",\"body\":\"only one\"}\n").status());
      assertEquals(200, s.send("DELETE", "/indexes/a/docs/d7", null).status());
    }
    try (LiveServer s = new LiveServer(config)) {
      Set<String> names = new HashSet<>();
      s.get("/indexes").json().get("indexes").forEach(n -> names.add(n.get("name").asText()));
      assertEquals(Set.of("a", "b"), names);
      JsonNode stats = s.get("/indexes/a/_stats").json();
      assertEquals(536, stats.get("docs").asLong());
      assertEquals("reopened, not re-ingested", 0, stats.get("ingestedDocs").asLong());
      assertTrue(stats.toString(), stats.get("segmentsByTier").path("NVM").asInt() > 0);
      assertEquals(stats.toString(), 0, stats.get("segmentsByTier").path("DRAM").asInt(0));
      assertEquals(404, s.get("/indexes/a/docs/d7").status());
      assertEquals("title 8", s.get("/indexes/a/docs/d8").json().get("fields").get("title").asText());
      assertEquals(1, s.search("b", "only", 10).json().get("total_hits").asLong());
      assertEquals(201, s.send("POST", "/indexes/a/docs", "{\"id\":\"after\",\"body\":\"restart\"}").status());
      assertEquals(1, s.search("a", "restart", 10).json().get("total_hits").asLong());
    }
  }
}
