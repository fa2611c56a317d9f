package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

public class QueryKeysTest extends LuceneTestCase {
  private static Query parse(String query) throws Exception {
    return new QueryParser("body", new StandardAnalyzer()).parse(query);
  }

  /** As the server parses for an index with one text field: a multi-field parser over it. */
  private static Query singleField(String query) throws Exception {
    return new MultiFieldQueryParser(new String[] {"body"}, new StandardAnalyzer()).parse(query);
  }

  /** As the server parses for an index with two text fields. */
  private static Query multiField(String query) throws Exception {
    return new MultiFieldQueryParser(new String[] {"title", "body"}, new StandardAnalyzer())
        .parse(query);
  }

  private static QueryKey key(QueryKey.Operator operator, String field, String... terms) {
    List<BytesRef> bytes = new ArrayList<>();
    for (String term : terms) {
      bytes.add(new BytesRef(term));
    }
    return new QueryKey(operator, field, bytes);
  }

  private static QueryKey keyOf(String query) throws Exception {
    return QueryKeys.of(parse(query)).orElseThrow(() -> new AssertionError("not keyed: " + query));
  }

  private static TermQuery term(String field, String text) {
    return new TermQuery(new Term(field, text));
  }

  public void testIsomorphicQueriesShareAKey() throws Exception {
    assertEquals(keyOf("+apple +melon"), keyOf("+melon +apple"));
    assertEquals(keyOf("+apple +melon").hashCode(), keyOf("+melon +apple").hashCode());
    assertEquals(keyOf("apple OR melon OR kiwi"), keyOf("kiwi melon apple"));
    assertEquals(QueryKey.Operator.AND, keyOf("apple AND melon").operator());
    assertEquals(QueryKey.Operator.OR, keyOf("apple melon").operator());
    assertNotEquals(keyOf("apple AND melon"), keyOf("apple OR melon"));
    assertNotEquals(keyOf("apple melon"), keyOf("title:apple title:melon"));
    assertEquals("body:apple|melon", keyOf("melon apple").toString());
  }

  public void testSingleTerm() throws Exception {
    QueryKey key = keyOf("Melon");
    assertEquals(QueryKey.Operator.SINGLE, key.operator());
    assertEquals("body", key.field());
    assertEquals("melon", key.terms().getFirst().utf8ToString());
  }

  /**
   * The shapes the server's parser gives what users type (each word a one-clause boolean per
   * default field, nested groups) key as the flat query Lucene rewrites them to.
   */
  public void testParserShapesKeyAsTheirFlatQuery() throws Exception {
    QueryKey or = key(QueryKey.Operator.OR, "body", "apple", "melon");
    QueryKey and = key(QueryKey.Operator.AND, "body", "apple", "melon");
    QueryKey or3 = key(QueryKey.Operator.OR, "body", "apple", "kiwi", "melon");
    QueryKey and3 = key(QueryKey.Operator.AND, "body", "apple", "kiwi", "melon");
    for (Query q : List.of(singleField("apple melon"), singleField("apple OR melon"), parse("melon apple"))) {
      assertEquals(q.toString(), or, QueryKeys.of(q).orElseThrow());
    }
    for (Query q :
        List.of(singleField("apple AND melon"), singleField("+apple +melon"), parse("+melon +apple"))) {
      assertEquals(q.toString(), and, QueryKeys.of(q).orElseThrow());
    }
    for (String text : List.of("(apple melon) kiwi", "apple (kiwi (melon))", "((apple)) kiwi melon")) {
      assertEquals(text, or3, QueryKeys.of(singleField(text)).orElseThrow());
      assertEquals(text, or3, QueryKeys.of(parse(text)).orElseThrow());
    }
    for (String text : List.of("+apple +(+kiwi +melon)", "apple AND (kiwi AND melon)", "+(+apple +kiwi) +melon")) {
      assertEquals(text, and3, QueryKeys.of(singleField(text)).orElseThrow());
      assertEquals(text, and3, QueryKeys.of(parse(text)).orElseThrow());
    }
    assertEquals(keyOf("apple"), QueryKeys.of(singleField("apple")).orElseThrow());
    assertEquals(keyOf("apple"), QueryKeys.of(singleField("(+apple)")).orElseThrow());
    assertEquals(keyOf("title:apple"), QueryKeys.of(multiField("title:apple")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.OR, "title", "apple", "melon"),
        QueryKeys.of(multiField("title:apple title:melon")).orElseThrow());
    assertEquals(
        key(QueryKey.Operator.AND, "title", "apple", "melon"),
        QueryKeys.of(multiField("+title:apple +title:melon")).orElseThrow());
  }

  public void testQueriesTheCacheCannotKeyBypassIt() throws Exception {
    List<Query> unkeyable =
        List.of(
            new WildcardQuery(new Term("body", "mel*n")),
            new PrefixQuery(new Term("body", "mel")),
            new RegexpQuery(new Term("body", "mel.n")),
            new FuzzyQuery(new Term("body", "melon")),
            TermRangeQuery.newStringRange("body", "a", "m", true, true),
            new PhraseQuery("body", "green", "melon"),
            new BoostQuery(term("body", "melon"), 2f),
            parse("+apple melon"), // mixed operators
            parse("apple -melon"),
            parse("apple (melon AND kiwi)"), // a conjunction inside a disjunction
            parse("+apple +(melon kiwi)"), // a disjunction inside a conjunction
            parse("body:apple title:melon"), // two fields
            parse("apple melon melon"), // a repeated term
            singleField("(+apple +melon) AND (+apple +melon)"),
            singleField("plum (kiwi melon) (melon kiwi)"),
            multiField("apple"), // one word over two default fields
            multiField("apple melon"),
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.FILTER)
                .add(term("body", "b"), Occur.FILTER)
                .build(),
            new BooleanQuery.Builder()
                .add(term("body", "a"), Occur.SHOULD)
                .add(term("body", "b"), Occur.SHOULD)
                .setMinimumNumberShouldMatch(1)
                .build(),
            new BooleanQuery.Builder() // a minimum-should-match is never inlined
                .add(term("body", "c"), Occur.SHOULD)
                .add(
                    new BooleanQuery.Builder()
                        .add(term("body", "a"), Occur.SHOULD)
                        .add(term("body", "b"), Occur.SHOULD)
                        .setMinimumNumberShouldMatch(1)
                        .build(),
                    Occur.SHOULD)
                .build(),
            new BooleanQuery.Builder().add(term("body", "a"), Occur.FILTER).build(),
            new BooleanQuery.Builder().add(term("body", "a"), Occur.MUST_NOT).build(),
            new BooleanQuery.Builder().build());
    for (Query query : unkeyable) {
      assertEquals(query.toString(), Optional.empty(), QueryKeys.of(query));
    }
  }

  public void testPartialTypeOneOnlyFromADisjunctionHoldingTheTerm() throws Exception {
    QueryKey disjunction = keyOf("melon cheese");
    assertEquals(Optional.of(1), disjunction.termPartFor(keyOf("melon")));
    assertEquals(Optional.of(0), disjunction.termPartFor(keyOf("cheese")));
    assertEquals(keyOf("melon"), disjunction.termKey(1));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("kiwi")));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("title:melon")));
    assertEquals(Optional.empty(), disjunction.termPartFor(keyOf("melon kiwi")));
    assertEquals(
        Optional.empty(), keyOf("+melon +cheese").termPartFor(keyOf("melon"))); // a subset only
    assertEquals(Optional.empty(), keyOf("melon").termPartFor(keyOf("melon")));
  }

  /** A key copies its terms: its caller may reuse the bytes, its hash and equality stay put. */
  public void testKeyIsUnaffectedByItsCallersBytes() throws Exception {
    BytesRef melon = new BytesRef("melon");
    QueryKey key = new QueryKey(QueryKey.Operator.SINGLE, "body", List.of(melon));
    int hash = key.hashCode();
    melon.bytes[melon.offset] = 'x';
    assertEquals(hash, key.hashCode());
    assertEquals(keyOf("melon"), key);
    assertEquals(keyOf("melon").hashCode(), hash);
  }

  public void testBinaryFormRoundTripsAndRefusesGarbage() throws Exception {
    for (String query : List.of("melon", "+a +b +c", "x y", "title:\"é\"")) {
      QueryKey key = keyOf(query);
      assertEquals(key, QueryKey.fromBytes(key.toBytes()));
    }
    byte[] bytes = keyOf("melon cheese").toBytes();
    expectThrows(
        IllegalArgumentException.class,
        () -> QueryKey.fromBytes(java.util.Arrays.copyOf(bytes, bytes.length - 1)));
    byte[] badOperator = bytes.clone();
    badOperator[0] = 'x';
    expectThrows(IllegalArgumentException.class, () -> QueryKey.fromBytes(badOperator));
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new QueryKey(
                QueryKey.Operator.AND, "body", List.of(new BytesRef("a"))));
  }

  /**
   * The premise of keys: every keyed shape, as parsed (nested, clauses in any order, repeated
   * terms), scores exactly as its canonical query ({@link QueryKeys#toQuery}): the same documents
   * in the same order with bit-identical scores, over an index of several segments.
   */
  public void testKeyedShapesScoreAsTheirCanonicalQuery() throws Exception {
    String[] words = {"apple", "melon", "kiwi", "cheese", "bread", "plum"};
    List<Query> shapes = new ArrayList<>();
    for (String text :
        List.of(
            "apple melon kiwi",
            "kiwi apple melon",
            "+apple +melon +cheese",
            "+cheese +melon +apple",
            "apple AND melon",
            "apple OR melon",
            "bread cheese apple melon kiwi",
            "(apple melon) kiwi",
            "apple (kiwi (melon bread))",
            "+apple +(+melon +kiwi)",
            "(+apple +melon) AND (+kiwi +cheese)",
            "plum")) {
      shapes.add(parse(text));
      shapes.add(singleField(text));
    }
    for (int i = 0; i < 40; i++) {
      shapes.add(singleField(randomNesting(words, random().nextBoolean())));
    }
    try (Directory directory = newDirectory();
        RandomIndexWriter writer = new RandomIndexWriter(random(), directory)) {
      for (int i = 0; i < 400; i++) {
        StringBuilder text = new StringBuilder();
        for (int w = 1 + random().nextInt(12); w > 0; w--) {
          text.append(words[random().nextInt(words.length)]).append(' ');
        }
        Document doc = new Document();
        doc.add(new TextField("body", text.toString(), Field.Store.NO));
        writer.addDocument(doc);
      }
      try (IndexReader reader = writer.getReader()) {
        IndexSearcher searcher = newSearcher(reader);
        for (Query shape : shapes) {
          QueryKey key = QueryKeys.of(shape).orElseThrow(() -> new AssertionError("not keyed: " + shape));
          TopDocs parsed = searcher.search(shape, 100);
          TopDocs canonical = searcher.search(QueryKeys.toQuery(key), 100);
          assertEquals(shape.toString(), parsed.totalHits, canonical.totalHits);
          assertEquals(shape.toString(), describe(parsed), describe(canonical));
        }
      }
    }
  }

  /** A random group of distinct words, nested in random parentheses, all OR or all AND. */
  private static String randomNesting(String[] words, boolean and) {
    List<String> distinct = new ArrayList<>(List.of(words));
    Collections.shuffle(distinct, random());
    int count = 2 + random().nextInt(words.length - 1);
    StringBuilder text = new StringBuilder();
    int open = 0;
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        text.append(and ? " AND " : " ");
      }
      if (i < count - 1 && random().nextInt(3) == 0) {
        text.append('(');
        open++;
      }
      text.append(distinct.get(i));
      if (open > 0 && random().nextInt(3) == 0) {
        text.append(')');
        open--;
      }
    }
    text.append(")".repeat(open));
    return text.toString();
  }

  private static List<String> describe(TopDocs top) {
    List<String> out = new ArrayList<>();
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(sd.doc + "=" + Float.floatToIntBits(sd.score));
    }
    return out;
  }
}
