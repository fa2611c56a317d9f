package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.cache.CachePolicy;
import org.lucenenvm.cache.ResultCacheSettings;
import org.lucenenvm.realtime.DurabilityMode;
import org.lucenenvm.realtime.RtEngine;
import org.lucenenvm.realtime.RtEngineStats;
import org.lucenenvm.realtime.RtSegmentInfo;
import org.lucenenvm.realtime.RtSnapshot;
import org.lucenenvm.realtime.SegmentState;
import org.lucenenvm.realtime.StatisticsMode;

/**
 * The result cache as a user of the server meets it, through HTTP and the server's query parser
 * over an index with two text fields ({@code title} and {@code body}, the parser's default fields):
 * the plain queries users type use it once segments exist ({@code miss}, then {@code hit}, counted
 * in {@code _stats}); a fresh document ranks as it does without the cache; and a server with the
 * cache answers random adds, updates, deletes and user-shaped queries as one without it: the same
 * totals (or, from an entry repaired after deletions, a lower bound said so), the same documents
 * and scores where it reports {@code "statistics": "exact"}, and scores within the bound of
 * search-server/README.md where it reports {@code "epoch"}.
 */
public class ResultCacheHttpTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  /** Reads scores as the exact decimals the server wrote, so that equal texts mean equal floats. */
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private static final String INDEX = "docs";
  private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi"};
  /**
   * Every document's body has this many words, and its title {@link #TITLE_WORDS}, so both
   * statistics give each field the same average length.
   */
  private static final int BODY_WORDS = 8;

  private static final int TITLE_WORDS = 3;

  private ServerConfig config(int segmentSize, int partitions, boolean cache) throws Exception {
    return LiveServer.config(tmp.newFolder().toPath())
        .mode(DurabilityMode.VOLATILE)
        .segmentSize(segmentSize)
        .partitions(partitions)
        .cache(
            cache
                ? ResultCacheSettings.of(
                    ResultCacheSettings.Tier.DRAM, 1 << 20, CachePolicy.Kind.GDSF, 0)
                : ResultCacheSettings.DISABLED)
        .build();
  }

  private static void createIndex(LiveServer s) throws Exception {
    String spec =
        "{\"fields\": {\"title\": \"text\", \"body\": \"text\", \"tag\": \"keyword\"}}";
    assertEquals(201, s.createIndex(INDEX, spec).status());
  }

  /**
   * Once segments exist, each keyable shape a user types misses once and then hits (isomorphic
   * shapes share the entry), and {@code _stats} counts exactly those hits and misses; before any
   * segment exists the index scores with exact statistics and nothing is cached. Plain words,
   * which the parser spreads over both default fields, are keyed; words joined by {@code AND}
   * (a conjunction of per-word disjunctions) bypass the cache, as do repeated words.
   */
  @Test
  public void plainQueriesMissThenHitOnceSegmentsExist() throws Exception {
    try (LiveServer s = new LiveServer(config(50, 1, true))) {
      createIndex(s);
      add(s, 0, 30, ResultCacheHttpTest::title, ResultCacheHttpTest::body);
      JsonNode early = search(s, "alpha", true);
      assertEquals("no segment yet", "exact", early.get("statistics").asText());
      assertEquals("bypass", early.get("cache").asText());

      add(s, 30, 160, ResultCacheHttpTest::title, ResultCacheHttpTest::body);
      awaitSettled(s.server.indexes().get(INDEX).engine());
      List<List<String>> shapes =
          List.of(
              List.of("alpha", "title:alpha body:alpha", "body:alpha title:alpha"),
              List.of("body:alpha"),
              List.of(
                  "alpha beta",
                  "beta alpha",
                  "alpha OR beta",
                  "body:beta title:alpha title:beta body:alpha"),
              List.of("body:alpha AND body:beta", "+body:beta +body:alpha"),
              List.of("(alpha beta) gamma", "gamma (beta alpha)", "alpha beta gamma"),
              List.of(
                  "+title:alpha +(+body:beta +body:gamma)",
                  "body:gamma AND title:alpha AND body:beta"),
              List.of("tag:t1", "tag:t1"));
      long hits = 0;
      long misses = 0;
      for (List<String> isomorphic : shapes) {
        JsonNode first = search(s, isomorphic.getFirst(), true);
        assertEquals(isomorphic.getFirst(), "miss", first.get("cache").asText());
        assertEquals("epoch", first.get("statistics").asText());
        misses++;
        for (String q : isomorphic) {
          JsonNode again = search(s, q, true);
          assertEquals(q, "hit", again.get("cache").asText());
          assertEquals(q, hitsOf(first), hitsOf(again));
          hits++;
        }
      }
      for (String unkeyable :
          List.of(
              "\"alpha beta\"",
              "alpha -delta",
              "+alpha gamma",
              "alph*",
              "alpha AND beta",
              "+alpha +beta",
              "alpha alpha")) {
        JsonNode answer = search(s, unkeyable, true);
        assertEquals(unkeyable, "bypass", answer.get("cache").asText());
        assertEquals(unkeyable, "epoch", answer.get("statistics").asText());
      }
      JsonNode cache = s.get("/indexes/" + INDEX + "/_stats").json().get("cache");
      assertEquals(cache.toString(), hits, cache.get("hits").asLong());
      assertEquals(cache.toString(), misses, cache.get("misses").asLong());
    }
  }

  /**
   * The case: 300 documents {@code alpha beta gamma} and one {@code alpha zeta beta};
   * {@code q=alpha zeta} scored the new document 0.144 with the cache on and 2.41 with it off while
   * every document was in the live segment (an empty epoch gave every term the same weight). Now
   * the new document ranks first and scores the same with the cache on and off: identically
   * (exact statistics) while no segment exists, and within the documented bound of the uncached
   * server (epoch statistics, the same with {@code cache=false}) once 300 documents are flushed.
   */
  @Test
  public void aFreshDocumentRanksAsWithoutTheCache() throws Exception {
    for (int segmentSize : new int[] {500, 100}) {
      try (LiveServer on = new LiveServer(config(segmentSize, 1, true));
          LiveServer off = new LiveServer(config(segmentSize, 1, false))) {
        for (LiveServer s : List.of(on, off)) {
          createIndex(s);
          add(s, 0, 300, i -> null, i -> "alpha beta gamma");
          awaitSettled(s.server.indexes().get(INDEX).engine());
          assertEquals(
              201,
              s.send("POST", "/indexes/" + INDEX + "/docs", "{\"id\": \"new\", \"body\": \"alpha zeta beta\"}")
                  .status());
        }
        JsonNode cached = search(on, "alpha zeta", true);
        JsonNode bypassed = search(on, "alpha zeta", false);
        JsonNode exact = search(off, "alpha zeta", true);
        for (JsonNode answer : List.of(cached, bypassed, exact)) {
          assertEquals(answer.toString(), "new", answer.get("hits").get(0).get("id").asText());
        }
        assertEquals(hitsOf(bypassed), hitsOf(cached));
        float fresh = score(cached.get("hits").get(0));
        float uncached = score(exact.get("hits").get(0));
        if (segmentSize == 500) { // all 301 documents live: no epoch
          assertEquals("exact", cached.get("statistics").asText());
          assertEquals(hitsOf(exact), hitsOf(cached));
        } else { // three flushed segments, the new document alone in the tail
          assertEquals("epoch", cached.get("statistics").asText());
          assertEquals("hit", search(on, "alpha zeta", true).get("cache").asText());
          try (Statistics stats = new Statistics(on, off)) {
            double bound = stats.bound(parse(on, "alpha zeta"));
            assertTrue(fresh + " vs " + uncached + " > " + bound, Math.abs(fresh - uncached) <= bound);
          }
        }
        assertTrue(fresh + " vs " + uncached, fresh > 2 && uncached > 2);
      }
    }
  }

  /**
   * Two servers, one with a (GDSF) cache and one without, get the same random adds, updates and
   * deletes in rounds; after each round (both pipelines settled, the same segments in both) every
   * user-shaped query, each asked twice, answers on the cached server as with {@code cache=false}
   * there, with the same total as the uncached server (a hit on an entry whose segments had
   * deletions since may report a lower bound instead, {@code total_hits_exact: false}), and: where
   * it reports exact statistics,
   * the same documents in the same order with bit-identical scores; where it reports the epoch's,
   * each hit's score within the documented bound of its uncached score, that bound computed from
   * both servers' statistics, and a top-k whose exact scores lie within twice the bound of the
   * uncached top-k. One or two partitions; both statistics and every cache outcome occur.
   */
  @Test
  public void cachedServerAnswersAsAServerWithoutCache() throws Exception {
    long seed = Long.getLong("tests.httpcache.seed", new Random().nextLong());
    Random r = new Random(seed);
    int partitions = 1 + r.nextInt(2);
    int segmentSize = 30;
    Map<String, Integer> outcomes = new HashMap<>();
    try (LiveServer on = new LiveServer(config(segmentSize, partitions, true));
        LiveServer off = new LiveServer(config(segmentSize, partitions, false))) {
      createIndex(on);
      createIndex(off);
      List<String> words = vocabulary();
      List<String> queries = userQueries(r, words);
      List<String> ids = new ArrayList<>();
      int nextId = 0;
      for (int round = 0; round < 7; round++) {
        for (int op = 0; op < 25; op++) {
          int kind = r.nextInt(100);
          if (kind < 70 || ids.isEmpty()) {
            String id = "d" + nextId++;
            String doc = document(r, words, id);
            assertSameStatus(201, on, off, "POST", "/indexes/" + INDEX + "/docs", doc);
            ids.add(id);
          } else if (kind < 85) {
            String id = ids.get(r.nextInt(ids.size()));
            String doc = document(r, words, id);
            assertSameStatus(200, on, off, "PUT", "/indexes/" + INDEX + "/docs/" + id, doc);
          } else {
            String id = ids.remove(r.nextInt(ids.size()));
            assertSameStatus(200, on, off, "DELETE", "/indexes/" + INDEX + "/docs/" + id, null);
          }
        }
        RtEngine cachedEngine = on.server.indexes().get(INDEX).engine();
        RtEngine plainEngine = off.server.indexes().get(INDEX).engine();
        awaitSettled(cachedEngine);
        awaitSettled(plainEngine);
        assertEquals(
            "seed " + seed + ": the two servers' segments differ (a merge?)",
            layout(plainEngine),
            layout(cachedEngine));
        try (Statistics stats = new Statistics(on, off)) {
          List<String> order = new ArrayList<>(queries);
          Collections.shuffle(order, r);
          for (String q : order) {
            for (int repeat = 0; repeat < 2; repeat++) {
              JsonNode answer = compare(on, off, stats, q, "seed " + seed + ", round " + round);
              outcomes.merge(answer.get("cache").asText(), 1, Integer::sum);
              outcomes.merge(answer.get("statistics").asText(), 1, Integer::sum);
            }
          }
        }
      }
      JsonNode cache = on.get("/indexes/" + INDEX + "/_stats").json().get("cache");
      assertEquals(cache.toString(), (long) outcomes.getOrDefault("hit", 0), cache.get("hits").asLong());
      assertEquals(
          cache.toString(), (long) outcomes.getOrDefault("miss", 0), cache.get("misses").asLong());
    }
    for (String expected : List.of("hit", "miss", "bypass", "epoch", "exact")) {
      assertTrue("seed " + seed + ": no " + expected + " in " + outcomes, outcomes.containsKey(expected));
    }
  }

  /**
   * Checks one query on both servers (see {@link #cachedServerAnswersAsAServerWithoutCache});
   * returns the cached server's answer.
   */
  private static JsonNode compare(LiveServer on, LiveServer off, Statistics stats, String q, String where)
      throws Exception {
    JsonNode cached = search(on, q, true);
    JsonNode bypassed = search(on, q, false);
    JsonNode exact = search(off, q, true);
    JsonNode all = search(off, q, 1000, true); // every match, with its exact score
    String context =
        where + ", q=" + q + "\n cached:   " + cached + "\n bypassed: " + bypassed + "\n exact:    " + exact;
    assertEquals(context, hitsOf(bypassed), hitsOf(cached));
    long total = exact.get("total_hits").asLong();
    assertTrue(context, exact.get("total_hits_exact").asBoolean());
    assertEquals(context, total, bypassed.get("total_hits").asLong());
    if (cached.get("total_hits_exact").asBoolean()) {
      assertEquals(context, total, cached.get("total_hits").asLong());
    } else { // a hit on an entry whose segments had deletions since: a lower bound (README)
      assertTrue(context, cached.get("cache").asText().endsWith("hit"));
      long lowerBound = cached.get("total_hits").asLong();
      assertTrue(context, lowerBound <= total && lowerBound >= cached.get("hits").size());
    }
    String statistics = cached.get("statistics").asText();
    assertEquals(context, stats.cached.statistics() == StatisticsMode.PER_EPOCH ? "epoch" : "exact", statistics);
    if (statistics.equals("exact")) {
      assertEquals(context, "bypass", cached.get("cache").asText());
      assertEquals(context, hitsOf(exact), hitsOf(cached));
    } else {
      Query query = parse(on, q);
      double bound = stats.bound(query);
      double deviation = stats.idfDeviation(query);
      assertTrue(context + ": " + deviation + " > " + bound, deviation <= bound);
      Map<String, Float> exactScores = new HashMap<>();
      for (JsonNode hit : all.get("hits")) {
        exactScores.put(hit.get("id").asText(), score(hit));
      }
      JsonNode top = exact.get("hits");
      float kth = top.isEmpty() ? 0 : score(top.get(top.size() - 1));
      for (JsonNode hit : cached.get("hits")) {
        float epochScore = score(hit);
        Float exactScore = exactScores.get(hit.get("id").asText());
        assertNotNull(context + ": " + hit + " does not match without the cache", exactScore);
        assertTrue(
            context + ": " + hit + " scores " + exactScore + " without the cache",
            Math.abs(epochScore - exactScore) <= deviation + 1e-4);
        assertTrue(
            context + ": " + hit + " is not in the uncached top-k within twice the bound",
            exactScore >= kth - 2 * deviation - 1e-4);
      }
    }
    return cached;
  }

  /**
   * The statistics each server scores with now: the cached server's (epoch or exact, {@link
   * RtSnapshot#statistics()}) and the uncached server's (exact), from snapshots of both engines,
   * which stay what the HTTP searches see while nothing is written and the pipelines are settled.
   */
  private static final class Statistics implements AutoCloseable {
    final RtSnapshot cached;
    final RtSnapshot exact;

    Statistics(LiveServer on, LiveServer off) throws Exception {
      cached = on.server.indexes().get(INDEX).engine().acquireSnapshot();
      exact = off.server.indexes().get(INDEX).engine().acquireSnapshot();
    }

    /**
     * The bound search-server/README.md states on a document's score difference: with equal
     * document lengths, at most the sum over the query's scoring terms of max(ln 2, ln((df + 0.5) /
     * (df_epoch + 0.5))). Also checks the premise the bound's ln 2 rests on: the epoch's document
     * count is at least half the exact one.
     */
    double bound(Query query) throws Exception {
      double sum = 0;
      for (Term term : scoringTerms(query)) {
        long df = exact.reader().docFreq(term);
        if (df > 0) {
          long dfEpoch = cached.searcher().termStatistics(term, (int) df, df).docFreq();
          CollectionStatistics epoch = cached.searcher().collectionStatistics(term.field());
          CollectionStatistics all = exact.searcher().collectionStatistics(term.field());
          assertTrue(epoch + " vs " + all, 2 * epoch.docCount() >= all.docCount());
          sum += Math.max(Math.log(2), Math.log((df + 0.5) / (dfEpoch + 0.5)));
        }
      }
      return sum;
    }

    /**
     * The sum over the query's scoring terms of |idf - idf_exact|: with equal document lengths a
     * term's BM25 score is its idf times a length-normalised frequency below 1 that both
     * statistics compute alike, so no score differs by more.
     */
    double idfDeviation(Query query) throws Exception {
      double sum = 0;
      for (Term term : scoringTerms(query)) {
        long df = exact.reader().docFreq(term);
        if (df > 0) {
          sum += Math.abs(idf(cached.searcher(), term, df) - idf(exact.searcher(), term, df));
        }
      }
      return sum;
    }

    /** BM25's idf of {@code term} under {@code s}'s statistics (as Lucene's BM25Similarity). */
    private static double idf(IndexSearcher s, Term term, long df) throws Exception {
      long docFreq = s.termStatistics(term, (int) df, df).docFreq();
      long docCount = s.collectionStatistics(term.field()).docCount();
      return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
    }

    @Override
    public void close() throws Exception {
      cached.close();
      exact.close();
    }
  }

  /** The terms of {@code query} that score (not those of prohibited clauses). */
  private static Set<Term> scoringTerms(Query query) {
    Set<Term> terms = new HashSet<>();
    query.visit(QueryVisitor.termCollector(terms));
    return terms;
  }

  private static Query parse(LiveServer s, String q) {
    return s.server.indexes().get(INDEX).parse(q, QueryLimits.DEFAULTS);
  }

  /**
   * User-shaped queries over distinct popular words: the keyable shapes (unqualified, so over both
   * default fields: a word, {@code a b}, {@code a OR b}, {@code (a b) c}; fielded: {@code body:a},
   * {@code body:a title:b}, {@code +body:a +title:b}, {@code +body:a +(+body:b +title:c)}) and some
   * the cache bypasses (a phrase, a negation, mixed operators, and {@code a AND b}, {@code +a +b}
   * over both default fields, conjunctions of per-word disjunctions).
   */
  private static List<String> userQueries(Random r, List<String> words) {
    List<String> queries = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      List<String> w = new ArrayList<>(words.subList(0, 12));
      Collections.shuffle(w, r);
      String a = w.get(0);
      String b = w.get(1);
      String c = w.get(2);
      queries.addAll(
          List.of(
              a,
              a + " " + b,
              a + " OR " + c,
              "(" + a + " " + b + ") " + c,
              a + " AND " + b,
              "+" + b + " +" + c,
              "body:" + c,
              "body:" + a + " title:" + b,
              "+body:" + b + " +title:" + c,
              "+body:" + a + " +(+body:" + b + " +title:" + c + ")",
              "tag:t" + i,
              "\"" + a + " " + b + "\"",
              a + " -" + b,
              "+" + a + " " + c));
    }
    return queries;
  }

  /** 64 two-syllable words, most popular first. */
  private static List<String> vocabulary() {
    List<String> words = new ArrayList<>();
    for (String first : SYLLABLES) {
      for (String second : SYLLABLES) {
        words.add(first + second);
      }
    }
    return words;
  }

  /**
   * A document whose title has {@link #TITLE_WORDS} and body {@link #BODY_WORDS} words drawn with
   * Zipf popularity, and one of 4 tags.
   */
  private static String document(Random r, List<String> words, String id) {
    return "{\"id\": \"" + id + "\", \"title\": \"" + text(r, words, TITLE_WORDS) + "\", \"body\": \""
        + text(r, words, BODY_WORDS) + "\", \"tag\": \"t" + r.nextInt(4) + "\"}";
  }

  /** {@code count} words drawn with Zipf popularity. */
  private static String text(Random r, List<String> words, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append(i == 0 ? "" : " ").append(words.get(zipf(r, words.size())));
    }
    return text.toString();
  }

  /** A rank in [0, n) with probability proportional to 1 / (rank + 1). */
  private static int zipf(Random r, int n) {
    double harmonic = 0;
    for (int i = 1; i <= n; i++) {
      harmonic += 1.0 / i;
    }
    double u = r.nextDouble() * harmonic;
    for (int i = 0; i < n; i++) {
      u -= 1.0 / (i + 1);
      if (u <= 0) {
        return i;
      }
    }
    return n - 1;
  }

  private static void assertSameStatus(
      int expected, LiveServer on, LiveServer off, String method, String path, String body)
      throws Exception {
    for (LiveServer s : List.of(on, off)) {
      LiveServer.Res res = s.send(method, path, body);
      assertEquals(res.body(), expected, res.status());
    }
  }

  /**
   * Adds documents {@code from..to-1} (ids {@code d<i>}) with the titles (none where null) and
   * bodies {@code title} and {@code body} give.
   */
  private static void add(
      LiveServer s, int from, int to, IntFunction<String> title, IntFunction<String> body)
      throws Exception {
    StringBuilder bulk = new StringBuilder();
    for (int i = from; i < to; i++) {
      bulk.append("{\"id\": \"d").append(i);
      if (title.apply(i) != null) {
        bulk.append("\", \"title\": \"").append(title.apply(i));
      }
      bulk.append("\", \"body\": \"").append(body.apply(i))
          .append("\", \"tag\": \"t").append(i % 4).append("\"}\n");
    }
    LiveServer.Res res = s.send("POST", "/indexes/" + INDEX + "/_bulk", bulk.toString());
    assertEquals(res.body(), 200, res.status());
  }

  /** The title of document {@code i} of the miss-then-hit test: {@code alpha} in every other. */
  private static String title(int i) {
    return i % 2 == 0 ? "alpha news" : "beta report";
  }

  /** The body of document {@code i} of the miss-then-hit test. */
  private static String body(int i) {
    return "alpha beta" + (i % 2 == 0 ? " gamma" : " delta");
  }

  private static JsonNode search(LiveServer s, String q, boolean cache) throws Exception {
    return search(s, q, 10, cache);
  }

  private static JsonNode search(LiveServer s, String q, int k, boolean cache) throws Exception {
    LiveServer.Res res =
        s.get(
            "/indexes/" + INDEX + "/_search?k=" + k + "&cache=" + cache + "&q="
                + URLEncoder.encode(q, StandardCharsets.UTF_8));
    assertEquals(q + ": " + res.body(), 200, res.status());
    return JSON.readTree(res.body());
  }

  /** The hits as {@code id=score}, scores as the exact decimals written. */
  private static List<String> hitsOf(JsonNode answer) {
    List<String> hits = new ArrayList<>();
    for (JsonNode hit : answer.get("hits")) {
      hits.add(hit.get("id").asText() + "=" + hit.get("score").decimalValue().toPlainString());
    }
    return hits;
  }

  private static float score(JsonNode hit) {
    BigDecimal exact = hit.get("score").decimalValue();
    return exact.floatValue();
  }

  /** Per partition, each segment's level, documents and deletions. */
  private static List<String> layout(RtEngine engine) {
    List<String> rows = new ArrayList<>();
    for (int p = 0; p < engine.partitionCount(); p++) {
      for (RtSegmentInfo info : engine.segments(p)) {
        rows.add(p + ":" + info.level() + ":" + info.maxDoc() + ":" + info.deletedDocs());
      }
    }
    return rows;
  }

  /**
   * Waits (bounded) until the engine's pipeline has nothing queued, holds at most one ingesting
   * segment per partition and its segments stayed the same over three polls.
   */
  private static void awaitSettled(RtEngine engine) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    Object last = null;
    int unchanged = 0;
    while (unchanged < 3) {
      RtEngineStats stats = engine.stats();
      boolean idle =
          stats.segments().getOrDefault(SegmentState.INGESTED, 0) <= engine.partitionCount()
              && stats.stages().values().stream().allMatch(stage -> stage.queued() == 0);
      Object now = List.of(layout(engine), stats.segments());
      unchanged = idle && now.equals(last) ? unchanged + 1 : 0;
      last = now;
      assertTrue("pipeline never settled: " + stats, System.nanoTime() < deadline);
      Thread.sleep(30);
    }
  }
}
